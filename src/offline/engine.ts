import { parseErrorBody } from '@/api/errors';
import type { FoliaDatabase } from './db';
import { OUTBOX_KINDS } from './kinds';
import type { KindRegistry } from './kinds/types';
import { isCreation, isTempId, type OutboxEntry, type OutboxError } from './outboxEntry';
import { rebase } from './conflicts';
import { alreadyThere, changedThereToo } from './fieldChanges';
import { ownerElementOf } from './ownerElement';
import { REMAP_TABLES } from './remap';
import { planReplay, type PlannedEntry } from './replayPlan';
import { ReplaySlots } from './replaySlots';
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
  /** Edits in flight at the same time. */
  concurrency?: number;
  kinds?: KindRegistry;
}

/**
 * How one edit's turn ended: applied (or moot) and gone, parked for the user (or sent again
 * after a merge), to retry later, or not sent in this run because what it waits for was not.
 */
type Outcome = 'done' | 'parked' | 'retry' | 'blocked';

interface ReplayHooks {
  /** Resolves once the edits it must follow were answered; false when one was not. */
  ready(): Promise<boolean>;
  /** The request left. */
  sent(): void;
  /** The server decided on it (anything but a retry). */
  answered(): void;
}

/** Where an edit of the current pass is, for the edits that wait on it. */
interface Progress {
  sent: Promise<boolean>;
  answered: Promise<boolean>;
  outcome: Promise<Outcome>;
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const MAX_BACKOFF_MS = 60_000;
/** Sends of one edit after which a 412 is left to the user even when it could be merged. */
const AUTO_MERGES = 5;

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
 * Replays the outbox, each edit once: up to `concurrency` edits in flight, an edit waiting only
 * for the edits it depends on (replayPlan.ts): the earlier edits of its entity and the creations
 * of what it names are answered and stored first; tree edits reach the server in the order they
 * were made, and a deletion after everything queued before it.
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

  private async run(): Promise<SyncResult> {
    const result: SyncResult = { sent: 0, offline: false, needsLogin: false, statuses: {} };
    for (;;) {
      const entries = await this.db.outbox.orderBy('seq').toArray();
      const progressed = await this.replayAll(planReplay(entries, this.kinds), result);
      // Parked edits let the edits queued behind them go, and edits may have been queued while
      // this pass ran: read the outbox again until nothing moves.
      if (!progressed || result.offline || result.needsLogin) break;
    }
    return result;
  }

  /**
   * Sends every planned edit that can go, each as soon as what it depends on allows, at most
   * `concurrency` at a time. Answers whether any edit was applied or parked.
   */
  private async replayAll(plan: PlannedEntry[], result: SyncResult): Promise<boolean> {
    const slots = new ReplaySlots(this.concurrency);
    const progress = new Map<PlannedEntry, Progress>();
    const stopped = () => result.offline || result.needsLogin;
    const now = this.now();
    for (const node of plan) {
      const sent = deferred<boolean>();
      const answered = deferred<boolean>();
      const outcome = (async (): Promise<Outcome> => {
        if (node.held || node.entry.nextAttemptAt > now) return 'blocked';
        const applied = await Promise.all(node.afterApplied.map((p) => progress.get(p)!.outcome));
        if (applied.some((other) => other !== 'done')) return 'blocked';
        // Claimed while the edit before it is on its way, so it leaves as soon as that is answered.
        const ahead = await Promise.all(node.afterAnswered.map((p) => progress.get(p)!.sent));
        if (!ahead.every(Boolean) || stopped()) return 'blocked';
        await slots.acquire(node.entry.seq!);
        try {
          return await this.replay(node.entry, result, {
            ready: async () => {
              const all = await Promise.all(
                node.afterAnswered.map((p) => progress.get(p)!.answered),
              );
              return all.every(Boolean) && !stopped();
            },
            sent: () => sent.resolve(true),
            answered: () => answered.resolve(true),
          });
        } finally {
          slots.release();
        }
      })().finally(() => {
        // Whatever happened, what waits on this edit learns it will not be sent or answered.
        sent.resolve(false);
        answered.resolve(false);
      });
      progress.set(node, { sent: sent.promise, answered: answered.promise, outcome });
    }
    const outcomes = await Promise.all([...progress.values()].map((p) => p.outcome));
    return outcomes.some((outcome) => outcome === 'done' || outcome === 'parked');
  }

  /** Sends one entry: applied and gone, parked for the user, or to retry later. */
  private async replay(
    entry: OutboxEntry,
    result: SyncResult,
    hooks: ReplayHooks,
  ): Promise<Outcome> {
    const seq = entry.seq!;
    // Claimed and its base version read in one transaction: one less wait per edit.
    const claim = await this.db.transaction('rw', [...REMAP_TABLES], async () => {
      const current = await this.db.outbox.get(seq);
      if (!current || current.status === 'failed' || current.status === 'conflict') return null;
      // Its ids are the server's by now (the creations it names were applied before it).
      if (isTempId(current.entityId) && !isCreation(current.kind)) return null;
      if (this.kinds[current.kind].refs(current).some(isTempId)) return null;
      const claimed = { ...current, status: 'sending' as const, attempts: current.attempts + 1 };
      const kind = this.kinds[current.kind];
      // Sent together: the browser's IndexedDB answers both in one round.
      const [, lastModified] = await Promise.all([
        this.db.outbox.put(claimed),
        kind.conditional ? (kind.baseVersion ?? elementBaseVersion)(this.db, claimed) : null,
      ]);
      return { claimed, lastModified };
    });
    if (!claim) return 'blocked';
    const { claimed, lastModified } = claim;
    const kind = this.kinds[claimed.kind];
    if (!(await hooks.ready())) {
      await this.unclaim(seq);
      return 'blocked';
    }

    let response: ReplayResponse;
    try {
      const sending = sendReplay(kind.request(claimed), {
        idempotencyKey: claimed.idempotencyKey,
        ifUnmodifiedSince: lastModified,
        fetcher: this.options.fetcher,
      });
      hooks.sent();
      response = await sending;
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
    const busy = status === 409 && errorCode(response) === 'idempotency_key_in_use';
    const again = busy || status === 401 || status >= 500 || status === 408 || status === 429;
    // The server has decided: the edits ordered after this one may go while its answer is stored.
    if (!again) hooks.answered();
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
        await Promise.all([
          kind.applied(this.db, claimed, response).then(() => this.db.outbox.delete(seq)),
          this.db.syncState.put({ key: 'lastSync', at: this.now() }),
        ]);
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

  /** An edit claimed but not sent (what it waited for went wrong): as it was before. */
  private async unclaim(seq: number): Promise<void> {
    await this.db.transaction('rw', this.db.outbox, async () => {
      const current = await this.db.outbox.get(seq);
      if (current?.status !== 'sending') return;
      await this.db.outbox.update(seq, { status: 'pending', attempts: current.attempts - 1 });
    });
  }

  private async retryLater(entry: OutboxEntry, delay?: number): Promise<void> {
    await this.db.outbox.update(entry.seq!, {
      status: 'pending',
      nextAttemptAt: this.now() + (delay ?? backoffMs(entry.attempts)),
    });
  }
}
