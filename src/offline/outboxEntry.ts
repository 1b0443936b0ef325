/**
 * One edit waiting to reach the server. Entries of one entity replay in `seq` order; entries
 * of different entities replay in parallel. The request is built at send time from `kind` and
 * `payload`, so ids given offline can be rewritten to the server's once known.
 */
export type OutboxKind =
  | 'element.create'
  | 'element.update'
  | 'element.delete'
  | 'element.move'
  | 'element.link'
  | 'transcription.create'
  | 'transcription.update'
  | 'transcription.delete'
  | 'classification.create'
  | 'classification.validate'
  | 'classification.reject'
  | 'metadata.create'
  | 'metadata.update'
  | 'metadata.delete'
  | 'dataset.element.add'
  | 'dataset.element.remove'
  | 'dataset.set.rename';

/** Kinds that create their entity: it has a temporary id until the server answers. */
export function isCreation(kind: OutboxKind): boolean {
  return kind.endsWith('.create');
}

export type OutboxStatus =
  /** Waiting for its turn (or for the network). */
  | 'pending'
  /** Sent, answer not yet received; resent with the same key after a reload. */
  | 'sending'
  /** Refused by the server (4xx); this entity's later edits wait for the user. */
  | 'failed'
  /** The entity changed on the server since the edit's version; the user chooses. */
  | 'conflict';

export interface OutboxError {
  status: number;
  message: string;
  /** Field errors of a validation error, by field. */
  fields?: Record<string, string[]>;
}

export interface OutboxEntry {
  seq?: number;
  /** The id the edit is about (temporary while the entity was created offline). */
  entityId: string;
  corpusId: string;
  kind: OutboxKind;
  payload: Record<string, unknown>;
  /** What the entity was before the edit, to put back if the user discards it. */
  previous: unknown;
  /** Sent as Idempotency-Key: the server applies one key once, whatever the retries. */
  idempotencyKey: string;
  status: OutboxStatus;
  attempts: number;
  /** Epoch ms before which the engine does not retry (backoff after network errors, 5xx). */
  nextAttemptAt: number;
  error: OutboxError | null;
  /** With a conflict: the server's current version and its Last-Modified. */
  current: unknown;
  currentLastModified: string | null;
  createdAt: number;
  /** The entity and every id the edit names (a parent, a destination): remaps find it by these. */
  refIds: string[];
  /** A short description for the Pending changes panel: "Rename “Folio 3” to “Folio 3r”". */
  label: string;
}

export const TEMP_PREFIX = 'tmp-';

export function isTempId(id: string): boolean {
  return id.startsWith(TEMP_PREFIX);
}

export function newTempId(): string {
  return `${TEMP_PREFIX}${crypto.randomUUID()}`;
}
