import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { SyncEngine } from '@/offline/engine';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher, type Fault } from './inProcessServer';
import { describeProject, random, RandomEdits } from './randomEdits';

describeEachDialect('random offline edits with random faults', ({ t }) => {
  let actors: Actors;
  const dbs: FoliaDatabase[] = [];

  beforeAll(async () => {
    actors = await makeActors(t().app);
  });
  afterAll(async () => {
    for (const db of dbs) await db.delete();
  });

  // CONVERGENCE_SEEDS=13-72 CONVERGENCE_STEPS=120 runs a longer search.
  const [low, high] = (process.env.CONVERGENCE_SEEDS ?? '1-20').split('-').map(Number);
  const steps = Number(process.env.CONVERGENCE_STEPS ?? 100);
  for (let seed = low!; seed <= (high ?? low!); seed += 1) {
    it(`converges to the state the same edits give online (seed ${seed})`, async () => {
      const corpusId = await makeCorpus(t().app, actors, { name: `Convergence ${seed}` });
      const db = new FoliaDatabase(`folia-convergence-${randomUUID()}`);
      dbs.push(db);
      const edits = new RandomEdits(db, corpusId, `s${seed}`, random(seed));
      const faults: Fault[] = ['none', 'none', 'lost-response', 'unavailable', 'unreachable'];
      const faultRoll = random(seed * 7919);
      const fetcher = inProcessFetcher(
        t().app,
        actors.owner.token,
        () => faults[Math.floor(faultRoll() * faults.length)]!,
      );
      let now = Date.now();
      // One request at a time: the faults fall on the same requests at every run, so a seed
      // that fails fails again.
      const engine = new SyncEngine(db, {
        fetcher,
        now: () => now,
        concurrency: Number(process.env.CONVERGENCE_CONCURRENCY ?? 1),
      });

      for (let step = 0; step < steps; step += 1) {
        if (!(await edits.step())) {
          // The network comes back for a moment.
          await engine.sync();
          now += 120_000;
        }
      }
      // Three requests in five fail, and a run stops at the first unreachable server: many runs.
      for (let round = 0; round < 2000 && (await db.outbox.count()) > 0; round += 1) {
        await engine.sync();
        now += 120_000;
      }
      const left = await db.outbox.toArray();
      expect(left.map((e) => `${e.label} ${e.status} ${e.error?.message ?? ''}`)).toEqual([]);
      const owner = clientFor(t().app, actors, 'owner');
      const server = await describeProject(
        async (path) => (await owner.get(path)).json(),
        corpusId,
      );
      expect(server).toEqual(edits.expected());
    });
  }
});
