import type { FoliaDatabase } from '../db';
import type { OutboxEntry, OutboxKind } from '../outboxEntry';
import type { OutgoingRequest, ReplayResponse } from '../transport';

export interface KindDefinition {
  /** Ids besides the entity's own that must exist on the server before the edit can be sent. */
  refs(entry: OutboxEntry): string[];
  /** The request, with every id already resolved to the server's. */
  request(entry: OutboxEntry): OutgoingRequest;
  /** Sent with If-Unmodified-Since: the edit must not overwrite a change it has not seen. */
  conditional: boolean;
  /** A 404 means the edit's goal is reached (deleting what is gone). */
  goneIsDone?: boolean;
  /**
   * The Last-Modified the edit is based on, sent as If-Unmodified-Since; the element's by
   * default (its row, or for a deletion the copy kept on the entry).
   */
  baseVersion?(db: FoliaDatabase, entry: OutboxEntry): Promise<string | null>;
  /** The entity is no longer here (deleted while the edit waited); elements by default. */
  goneHere?(db: FoliaDatabase, entry: OutboxEntry): Promise<boolean>;
  /** Writes what the server answered into the local store (inside the engine's transaction). */
  applied(db: FoliaDatabase, entry: OutboxEntry, response: ReplayResponse): Promise<void>;
  /** Puts the local store back as it was before the edit, when the user discards it. */
  discard(db: FoliaDatabase, entry: OutboxEntry): Promise<void>;
}

export type KindRegistry = Record<OutboxKind, KindDefinition>;
