import type { FoliaDatabase } from './db';
import { ELEMENT_KINDS } from './kinds';
import type { KindRegistry } from './kinds/types';
import { isTempId, type OutboxEntry, type OutboxError } from './outboxEntry';
import { REMAP_TABLES } from './remap';
import { ReplayNetworkError, sendReplay, type Fetcher, type ReplayResponse } from './transport';

export interface SyncResult {
  /** Edits the server applied (or had applied) during this run. */
  sent: number;
  /** The server could not be reached: the rest waits for the network. */
  offline: boolean;
  /** The session ended (401): edits wait until the user logs in again. */
  needsLogin: boolean;
}

export interface EngineOptions {
  fetcher?: Fetcher;
  now?: () => number;
  /** Entities replayed at the same time. */
  concurrency?: number;
  kinds?: KindRegistry;
}

const MAX_BACKOFF_MS = 60_000;

/** 1 s, 2 s, 4 s… up to a minute, with jitter so tabs and devices do not retry in step. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

function errorOf(response: ReplayResponse): OutboxError {
  const body = response.body as { errors?: { detail?: string; attr?: string | null }[] } | null;
  if (body && Array.isArray(body.errors) && body.errors.length) {
    const fields: Record<string, string[]> = {};
    for (const item of body.errors) {
      (fields[item.attr ?? 'non_field_errors'] ??= []).push(item.detail ?? '');
    }
    return {
      status: response.status,
      message: body.errors.map((item) => item.detail).join(' - '),
      fields,
    };
  }
  return {
    status: response.status,
    message:
      typeof response.body === 'string' && response.body
        ? response.body
        : `HTTP ${response.status}`,
  };
}

function errorCode(response: ReplayResponse): string | null {
  const body = response.body as { errors?: { code?: string }[] } | null;
  return body?.errors?.[0]?.code ?? null;
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
    this.kinds = options.kinds ?? ELEMENT_KINDS;
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

  /** The first entry of each entity that can be sent now. */
  private async sendable(): Promise<OutboxEntry[]> {
    const entries = await this.db.outbox.orderBy('seq').toArray();
    const now = this.now();
    const seen = new Set<string>();
    const heads: OutboxEntry[] = [];
    for (const entry of entries) {
      if (seen.has(entry.entityId)) continue;
      seen.add(entry.entityId);
      if (entry.status === 'failed' || entry.status === 'conflict') continue;
      if (entry.nextAttemptAt > now) continue;
      // Only a creation may be sent for an entity that has no server id yet.
      if (isTempId(entry.entityId) && entry.kind !== 'element.create') continue;
      if (this.kinds[entry.kind].refs(entry).some(isTempId)) continue;
      heads.push(entry);
    }
    return heads;
  }

  private async run(): Promise<SyncResult> {
    const result: SyncResult = { sent: 0, offline: false, needsLogin: false };
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
        const outcomes = await Promise.all(batch.map((entry) => this.replay(entry, result)));
        if (outcomes.some(Boolean)) progressed = true;
      }
      if (!progressed || result.offline || result.needsLogin) break;
    }
    return result;
  }

  /** Sends one entry; true when it left the outbox. */
  private async replay(entry: OutboxEntry, result: SyncResult): Promise<boolean> {
    const seq = entry.seq!;
    const claimed = await this.db.transaction('rw', this.db.outbox, async () => {
      const current = await this.db.outbox.get(seq);
      if (!current || current.status === 'failed' || current.status === 'conflict') return null;
      await this.db.outbox.update(seq, { status: 'sending', attempts: current.attempts + 1 });
      return { ...current, status: 'sending' as const, attempts: current.attempts + 1 };
    });
    if (!claimed) return false;
    const kind = this.kinds[claimed.kind];
    const lastModified = kind.conditional
      ? ((await this.db.elements.get(claimed.entityId))?.lastModified ?? null)
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
      return false;
    }

    const { status } = response;
    if ((status >= 200 && status < 300) || (status === 404 && kind.goneIsDone)) {
      await this.db.transaction('rw', [...REMAP_TABLES, 'syncState'], async () => {
        await kind.applied(this.db, claimed, response);
        await this.db.outbox.delete(seq);
        await this.db.syncState.put({ key: 'lastSync', at: this.now() });
      });
      result.sent += 1;
      return true;
    }
    if (status === 412) {
      const body = response.body as { current?: unknown } | null;
      await this.db.outbox.update(seq, {
        status: 'conflict',
        current: body?.current ?? null,
        currentLastModified: response.lastModified,
        error: errorOf(response),
      });
      return false;
    }
    if (status === 401) {
      result.needsLogin = true;
      await this.db.outbox.update(seq, { status: 'pending' });
      return false;
    }
    const busy = status === 409 && errorCode(response) === 'idempotency_key_in_use';
    if (busy || status >= 500 || status === 408 || status === 429) {
      await this.retryLater(claimed, busy ? 1000 : undefined);
      return false;
    }
    await this.db.outbox.update(seq, { status: 'failed', error: errorOf(response) });
    return false;
  }

  private async retryLater(entry: OutboxEntry, delay?: number): Promise<void> {
    await this.db.outbox.update(entry.seq!, {
      status: 'pending',
      nextAttemptAt: this.now() + (delay ?? backoffMs(entry.attempts)),
    });
  }
}
