/**
 * Keeps the search index in step with the database in the background: about every second it
 * indexes the elements the triggers marked pending, and goes on at once while more are waiting
 * (an import, or the first start after the migration). Started when the server listens and
 * stopped before it closes, like the job runner: apps that never listen start no timer.
 */
import type { FastifyBaseLogger } from 'fastify';
import { flushPending } from './pending';
import type { SearchHandle } from './indexer';

export interface SearchFollower {
  start(): void;
  /** Stops the timer and waits for the flush under way, if any. */
  stop(): Promise<void>;
}

export interface SearchFollowerOptions {
  /** Pause between two looks at the pending rows when none were left. */
  intervalMs?: number;
  /** Elements indexed per turn before the follower looks again (and gives way). */
  turnLimit?: number;
}

export function createSearchFollower(
  handle: SearchHandle,
  log: FastifyBaseLogger,
  options: SearchFollowerOptions = {},
): SearchFollower {
  const intervalMs = options.intervalMs ?? 1000;
  const turnLimit = options.turnLimit ?? 20_000;
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let turn: Promise<void> = Promise.resolve();

  const schedule = (ms: number) => {
    if (!running) return;
    timer = setTimeout(() => {
      timer = null;
      turn = pass();
    }, ms);
    timer.unref();
  };

  const pass = async () => {
    let remaining = 0;
    try {
      const result = await flushPending(handle, { limit: turnLimit, shouldStop: () => !running });
      remaining = result.remaining;
      for (const { elementId, error } of result.skipped) {
        log.error({ err: error, element: elementId }, 'element left out of the search index');
      }
    } catch (error) {
      // The database may be briefly unreachable: the rows stay pending for the next turn.
      log.error({ err: error }, 'search index update failed');
    }
    schedule(remaining > 0 ? 0 : intervalMs);
  };

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await turn;
    },
  };
}
