import { parseErrorBody } from '@/api/errors';
import type { FoliaDatabase } from './db';
import { OUTBOX_KINDS } from './kinds';
import type { KindRegistry } from './kinds/types';
import {
  isCreation,
  isTempId,
  type OutboxEntry,
  type OutboxError,
  type OutboxKind,
} from './outboxEntry';
import { rebase } from './conflicts';
import { alreadyThere, changedThereToo } from './fieldChanges';
import { ownerElementOf } from './ownerElement';
import { REMAP_TABLES } from './remap';
import { ReplayNetworkError, sendReplay, type Fetcher, type ReplayResponse } from './transport';

export interface SyncResult {
  /** Edits the server applied (or had applied) during this run. */
  sent: number;
  /** The server could not be reached: the rest waits for the network. */
  offline: boolean;
  /** The session ended (401): edits wait until the user logs in again. */
  needsLogin: boolean;
  /** The HTTP status that applied each edit sent, by outbox seq (202: scheduled as a job). */
  statuses: Record<number, number>;
}

export interface EngineOptions {
  fetcher?: Fetcher;
  now?: () => number;
  /** Entities replayed at the same time. */
  concurrency?: number;
  kinds?: KindRegistry;
}

const MAX_BACKOFF_MS = 60_000;
/** Sends of one edit after which a 412 is left to the user even when it could be merged. */
const AUTO_MERGES = 5;

const TREE_EDITS = new Set<OutboxKind>([
  'element.create',
  'element.move',
  'element.link',
  'element.delete',
]);

/**
 * The version an element edit was based on: the local element's, or for a deletion (the element
 * is gone here) the one kept on the entry's copy of it.
 */
async function elementBaseVersion(db: FoliaDatabase, entry: OutboxEntry): Promise<string | null> {
  const local = await db.elements.get(entry.entityId);
  if (local) return local.lastModified;
  const previous = entry.previous as { lastModified?: string | null } | null;
  return entry.kind === 'element.delete' ? (previous?.lastModified ?? null) : null;
}

async function elementGoneHere(db: FoliaDatabase, entry: OutboxEntry): Promise<boolean> {
  return !(await db.elements.get(entry.entityId));
}

/** 1 s, 2 s, 4 s… up to a minute, with jitter so tabs and devices do not retry in step. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The failed replay's message and field errors, read as every other API error is. */
function errorOf(response: ReplayResponse): OutboxError {
  const error = parseErrorBody(response.status, response.body, `HTTP ${response.status}`);
  return Object.keys(error.fields).length
    ? { status: response.status, message: error.message, fields: error.fields }
    : { status: response.status, message: error.message };
}

function errorCode(response: ReplayResponse): string | null {
  return parseErrorBody(response.status, response.body, '').code;
}

/**
 * Replays the outbox: in order per entity, in parallel across entities, each edit once. An
 * edit that references something created offline waits until that creation has its server id.
 */
export class SyncEngine {
  private readonly kinds: KindRegistry;
  private readonly now: () => number;
  private readonly concurrency: number;
  private running: Promise<SyncResult> | null = null;

  constructor(
    private readonly db: FoliaDatabase,
    private readonly options: EngineOptions = {},
  ) {
    this.kinds = options.kinds ?? OUTBOX_KINDS;
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? 4;
  }

  /** One replay run; a call while one runs joins it. */
  sync(): Promise<SyncResult> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * The first entry of each entity that can be sent now. Creations, moves, links and deletions
   * change the tree and go one at a time in the order they were made: replayed out of order,
   * "move B out of A, then A into B" would be a cycle the server refuses.
   */
  private async sendable(): Promise<OutboxEntry[]> {
    const entries = await this.db.outbox.orderBy('seq').toArray();
    const now = this.now();
    const seen = new Set<string>();
    const heads: OutboxEntry[] = [];
    let treeEditWaiting = false;
    // Entities held by an edit the user must look at; their later edits hold nothing else up.
    const held = new Set<string>();
    for (const entry of entries) {
      const treeEdit = TREE_EDITS.has(entry.kind);
      const first = !seen.has(entry.entityId);
      seen.add(entry.entityId);
      if (entry.status === 'failed' || entry.status === 'conflict') held.add(entry.entityId);
      const ready =
        first &&
        !(treeEdit && treeEditWaiting) &&
        !held.has(entry.entityId) &&
        entry.nextAttemptAt <= now &&
        // Only a creation may be sent for an entity that has no server id yet.
        (!isTempId(entry.entityId) || isCreation(entry.kind)) &&
        !this.kinds[entry.kind].refs(entry).some(isTempId);
      if (ready) heads.push(entry);
      if (treeEdit && !held.has(entry.entityId)) treeEditWaiting = true;
    }
    return heads;
  }

  private async run(): Promise<SyncResult> {
    const result: SyncResult = { sent: 0, offline: false, needsLogin: false, statuses: {} };
    for (;;) {
      const heads = await this.sendable();
      if (heads.length === 0) break;
      let progressed = false;
      for (
        let i = 0;
        i < heads.length && !result.offline && !result.needsLogin;
        i += this.concurrency
      ) {
        const batch = heads.slice(i, i + this.concurrency);
        const outcomes = await Promise.all(
          batch.map((entry) =>
            TREE_EDITS.has(entry.kind)
              ? this.replayTreeEdits(entry, result)
              : this.replay(entry, result),
          ),
        );
        // A parked edit lets the edits queued behind it go: that is progress too.
        if (outcomes.some((outcome) => outcome !== 'retry')) progressed = true;
      }
      if (!progressed || result.offline || result.needsLogin) break;
    }
    return result;
  }

  /**
   * Sends a tree edit, then the tree edits after it while each is ready, without reading the
   * whole outbox again between them: a thousand creations replay in one pass.
   */
  private async replayTreeEdits(
    first: OutboxEntry,
    result: SyncResult,
  ): Promise<'done' | 'parked' | 'retry'> {
    let outcome = await this.replay(first, result);
    let entry: OutboxEntry | null = first;
    let any = outcome;
    while (outcome === 'done' && !result.offline && !result.needsLogin) {
      entry = await this.nextTreeEdit(entry.seq!);
      if (!entry) break;
      outcome = await this.replay(entry, result);
      if (outcome !== 'retry') any = outcome;
    }
    return any;
  }

  /** The tree edit queued after `seq`, if it can be sent now. */
  private async nextTreeEdit(seq: number): Promise<OutboxEntry | null> {
    const next = await this.db.outbox
      .where(':id')
      .above(seq)
      .filter((entry) => TREE_EDITS.has(entry.kind))
      .first();
    if (!next || next.status === 'failed' || next.status === 'conflict') return null;
    if (next.nextAttemptAt > this.now()) return null;
    if (isTempId(next.entityId) && !isCreation(next.kind)) return null;
    if (this.kinds[next.kind].refs(next).some(isTempId)) return null;
    const firstOfEntity = await this.db.outbox.where('entityId').equals(next.entityId).first();
    return firstOfEntity?.seq === next.seq ? next : null;
  }

  /** Sends one entry: applied and gone, parked for the user, or to retry later. */
  private async replay(
    entry: OutboxEntry,
    result: SyncResult,
  ): Promise<'done' | 'parked' | 'retry'> {
    const seq = entry.seq!;
    const claimed = await this.db.transaction('rw', this.db.outbox, async () => {
      const current = await this.db.outbox.get(seq);
      if (!current || current.status === 'failed' || current.status === 'conflict') return null;
      await this.db.outbox.update(seq, { status: 'sending', attempts: current.attempts + 1 });
      return { ...current, status: 'sending' as const, attempts: current.attempts + 1 };
    });
    if (!claimed) return 'retry';
    const kind = this.kinds[claimed.kind];
    const lastModified = kind.conditional
      ? await (kind.baseVersion ?? elementBaseVersion)(this.db, claimed)
      : null;

    let response: ReplayResponse;
    try {
      response = await sendReplay(kind.request(claimed), {
        idempotencyKey: claimed.idempotencyKey,
        ifUnmodifiedSince: lastModified,
        fetcher: this.options.fetcher,
      });
    } catch (error) {
      if (!(error instanceof ReplayNetworkError)) throw error;
      result.offline = true;
      await this.retryLater(claimed);
      return 'retry';
    }

    // Refused for its version while the server already holds what it sets: done, at that version.
    const held =
      response.status === 412 ? (response.body as { current?: unknown } | null)?.current : null;
    if (held && alreadyThere(claimed, held)) response = { ...response, status: 200, body: held };
    const { status } = response;
    // Refused because the element it belongs to is gone, deleted here too (an edit that was on
    // its way when the element was deleted): the deletion erased it anyway.
    if ((status === 400 || status === 404) && (await this.ownerDeletedHere(claimed))) {
      await this.db.outbox.delete(seq);
      result.statuses[seq] = status;
      return 'done';
    }
    // Gone on the server and deleted here too (a rename queued before a deletion): moot.
    const moot = status === 404 && (await (kind.goneHere ?? elementGoneHere)(this.db, claimed));
    if ((status >= 200 && status < 300) || (status === 404 && (kind.goneIsDone || moot))) {
      await this.db.transaction('rw', [...REMAP_TABLES, 'syncState'], async () => {
        await kind.applied(this.db, claimed, response);
        await this.db.outbox.delete(seq);
        await this.db.syncState.put({ key: 'lastSync', at: this.now() });
      });
      result.sent += 1;
      result.statuses[seq] = status;
      return 'done';
    }
    if (status === 412) {
      const body = response.body as { current?: unknown } | null;
      const current = body?.current ?? null;
      await this.db.transaction('rw', [...REMAP_TABLES], async () => {
        await this.db.outbox.update(seq, {
          status: 'conflict',
          current,
          currentLastModified: response.lastModified,
          error: errorOf(response),
        });
        const conflict = await this.db.outbox.get(seq);
        const merge =
          !!conflict &&
          !!response.lastModified &&
          conflict.attempts <= AUTO_MERGES &&
          !changedThereToo(conflict, current);
        if (!merge) return;
        // Nobody changed what this edit changes: it goes again over the server's version, a
        // merge field by field; the user is asked only when the same field moved there.
        await rebase(this.db, conflict);
        await this.db.outbox.update(seq, {
          status: 'pending',
          nextAttemptAt: 0,
          error: null,
          idempotencyKey: crypto.randomUUID(),
        });
      });
      // Parked or sent again: either way the queue behind it moves.
      return 'parked';
    }
    if (status === 401) {
      result.needsLogin = true;
      await this.db.outbox.update(seq, { status: 'pending' });
      return 'retry';
    }
    const busy = status === 409 && errorCode(response) === 'idempotency_key_in_use';
    if (busy || status >= 500 || status === 408 || status === 429) {
      await this.retryLater(claimed, busy ? 1000 : undefined);
      return 'retry';
    }
    await this.db.outbox.update(seq, { status: 'failed', error: errorOf(response) });
    return 'parked';
  }

  /** The element the edit belongs to was deleted on this device. */
  private async ownerDeletedHere(entry: OutboxEntry): Promise<boolean> {
    const owner = ownerElementOf(entry);
    // A creation refused stays for the user: the deletion queued after it needs its id.
    if (!owner || entry.kind === 'element.delete' || entry.kind === 'element.create') return false;
    // Dataset memberships are added from lists whose elements this device may never have
    // stored: absent here is not deleted here, and the refusal is the user's to read.
    if (entry.kind.startsWith('dataset.')) return false;
    return !(await this.db.elements.get(owner));
  }

  private async retryLater(entry: OutboxEntry, delay?: number): Promise<void> {
    await this.db.outbox.update(entry.seq!, {
      status: 'pending',
      nextAttemptAt: this.now() + (delay ?? backoffMs(entry.attempts)),
    });
  }
}
