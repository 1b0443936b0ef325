import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectivityMonitor } from '@/offline/connectivity';
import { FoliaDatabase } from '@/offline/db';
import { createElement } from '@/offline/elementEdits';
import { SyncEngine, type SyncResult } from '@/offline/engine';
import { SyncScheduler } from '@/offline/syncScheduler';
import { makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher } from './inProcessServer';

/** Web Locks as two tabs see them: a lock held elsewhere is not available. */
function fakeLocks(heldElsewhere: () => boolean) {
  return {
    request: async (
      _name: string,
      _options: LockOptions,
      callback: (lock: Lock | null) => Promise<void>,
    ) => callback(heldElsewhere() ? null : ({ name: _name, mode: 'exclusive' } as Lock)),
  } as unknown as Pick<LockManager, 'request'>;
}

describeEachDialect('the sync scheduler', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let db: FoliaDatabase;
  const target = new EventTarget() as unknown as Window;

  beforeAll(async () => {
    actors = await makeActors(t().app);
    corpusId = await makeCorpus(t().app, actors, { name: 'Scheduled' });
  });
  afterEach(async () => db?.delete());

  it('replays when the API comes back, and not while another tab holds the lock', async () => {
    db = new FoliaDatabase(`folia-scheduler-${randomUUID()}`);
    let reachable = false;
    const monitor = new ConnectivityMonitor(async () => reachable, target);
    monitor.reportUnreachable();
    const fetcher = inProcessFetcher(t().app, actors.contributor.token);
    let otherTab = true;
    const scheduler = new SyncScheduler(
      db,
      new SyncEngine(db, { fetcher }),
      monitor,
      fakeLocks(() => otherTab),
    );
    scheduler.start(target);
    await createElement(db, { corpus: corpusId, parent: null, type: 'folder', name: 'Box S' });

    await scheduler.kick(); // offline: nothing sent
    expect(fetcher.requests).toEqual([]);

    reachable = true;
    await monitor.check(); // back online, but the other tab replays
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetcher.requests).toEqual([]);

    otherTab = false;
    await scheduler.kick();
    expect(fetcher.requests.map((r) => r.method)).toEqual(['POST']);
    expect(await db.outbox.count()).toBe(0);
    scheduler.stop();
  });
});

describe('a sync scheduler stopped during a run', () => {
  it('does not leave the failure of a run nobody awaits unhandled once stopped', async () => {
    const target = new EventTarget() as unknown as Window;
    const db = new FoliaDatabase(`folia-scheduler-stop-${randomUUID()}`);
    let fail!: (error: Error) => void;
    const running = new Promise<SyncResult>((_, reject) => (fail = reject));
    const engine = { sync: () => running } as unknown as SyncEngine;
    const monitor = new ConnectivityMonitor(async () => true, target);
    const scheduler = new SyncScheduler(db, engine, monitor, null);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      scheduler.start(target);
      target.dispatchEvent(new Event('focus'));
      // The tab closes its store under the run: the run fails after stop().
      scheduler.stop();
      await db.delete();
      fail(new Error('Database has been closed'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
