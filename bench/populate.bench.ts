/**
 * Populating a dataset with 100,000 elements (FOLIA_BENCH_POPULATE for another size), with the
 * server as a process of its own answering over HTTP, on SQLite and on PostgreSQL when reachable:
 * - through the API: from POST /datasets/{id}/populate/ to the job processed, and the server
 *   process' peak resident memory over that time (VmHWM, reset before each run);
 * - bare: the same random 80/10/10 split as one INSERT … SELECT … ORDER BY random() sent
 *   through the driver (better-sqlite3 on the same database file, or pg).
 * Sides alternate from one round to the next; the ratio is the median of the rounds' pairs.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createElements } from '../server/services/elements/create';
import { createDataset } from '../server/services/datasets/datasets';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { seedProject, seedUser, type BenchUser, type DialectName } from './seed';
import { median, onEachDialect, resetPeak, sleep, statusKb, stopBench } from './serverProcess';

const ELEMENTS = Number(process.env.FOLIA_BENCH_POPULATE ?? 100_000);
const ROUNDS = Number(process.env.FOLIA_BENCH_ROUNDS ?? 3);
const SHARES = { train: 0.8, dev: 0.1, test: 0.1 };

interface Bench {
  app: FastifyInstance;
  server: ChildServer;
  user: BenchUser;
  userRow: { id: string };
  corpusId: string;
}

async function seedPages(app: FastifyInstance, corpusId: string): Promise<void> {
  const type = await app.db
    .selectFrom('element_types')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('slug', '=', 'page')
    .executeTakeFirstOrThrow();
  for (let start = 0; start < ELEMENTS; start += 10_000) {
    const size = Math.min(10_000, ELEMENTS - start);
    await app.db.transaction().execute((trx) =>
      createElements(
        trx,
        Array.from({ length: size }, (_, i) => ({
          corpusId,
          typeId: type.id,
          name: `Page ${start + i + 1}`,
          parentId: null,
        })),
      ),
    );
  }
}

async function newDataset(bench: Bench): Promise<{ id: string; sets: Record<string, string> }> {
  const user = await bench.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', bench.userRow.id)
    .executeTakeFirstOrThrow();
  const dataset = await createDataset(bench.app.db, user, bench.corpusId, {
    name: `Bench ${randomUUID()}`,
    description: 'Populate benchmark',
  });
  return {
    id: dataset.id,
    sets: Object.fromEntries(dataset.sets.map((set) => [set.name, set.id])),
  };
}

async function dropDataset(bench: Bench, id: string): Promise<void> {
  await bench.app.db.deleteFrom('datasets').where('id', '=', id).execute();
}

/** POST → job processed, in ms, with the server's peak memory over that time (kB). */
async function throughApi(bench: Bench): Promise<{ ms: number; peakKb: number; startKb: number }> {
  const dataset = await newDataset(bench);
  const pid = bench.server.process.pid!;
  resetPeak(pid);
  const startKb = statusKb(pid, 'VmRSS');
  const t0 = performance.now();
  const response = await fetch(`${bench.server.url}/api/v1/datasets/${dataset.id}/populate/`, {
    method: 'POST',
    headers: { ...bench.user.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ types: ['page'], count: ELEMENTS, sets: SHARES }),
  });
  if (response.status !== 202)
    throw new Error(`populate: ${response.status} ${await response.text()}`);
  const { job } = (await response.json()) as { job: { id: string } };
  for (;;) {
    const row = await bench.app.db
      .selectFrom('jobs')
      .select(['status', 'result', 'error'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    if (row.status === 'processed') {
      const ms = performance.now() - t0;
      const peakKb = statusKb(pid, 'VmHWM');
      const { count } = JSON.parse(row.result!) as { count: number };
      if (count !== ELEMENTS) throw new Error(`populated ${count} of ${ELEMENTS}`);
      await dropDataset(bench, dataset.id);
      return { ms, peakKb, startKb };
    }
    if (row.status === 'error') throw new Error(`populate job failed: ${row.error}`);
    await sleep(10);
  }
}

/**
 * The same split, bare: one statement through the driver (Kysely's sql over better-sqlite3 on
 * the same file, or over pg), drawing with ORDER BY random().
 */
async function bare(bench: Bench): Promise<{ ms: number }> {
  const dataset = await newDataset(bench);
  const train = Math.floor(ELEMENTS * SHARES.train);
  const dev = Math.floor(ELEMENTS * SHARES.dev);
  const t0 = performance.now();
  const result = await sql`
    WITH drawn AS (
      SELECT elements.id, ROW_NUMBER() OVER (ORDER BY random()) AS n
      FROM elements JOIN element_types ON element_types.id = elements.type_id
      WHERE elements.corpus_id = ${bench.corpusId} AND element_types.slug = 'page'
    )
    INSERT INTO dataset_elements (set_id, element_id, created)
    SELECT CASE WHEN n <= ${train} THEN ${dataset.sets.train}
                WHEN n <= ${train + dev} THEN ${dataset.sets.dev}
                ELSE ${dataset.sets.test} END,
           id, ${new Date().toISOString()}
    FROM drawn WHERE n <= ${ELEMENTS}`.execute(bench.app.db);
  const ms = performance.now() - t0;
  const inserted = Number(result.numAffectedRows ?? 0);
  if (inserted !== ELEMENTS) throw new Error(`inserted ${inserted} of ${ELEMENTS}`);
  await dropDataset(bench, dataset.id);
  return { ms };
}

async function benchDialect(dialect: DialectName): Promise<void> {
  const throwaway = await makeThrowawayApp(dialect, { label: 'bench' });
  let server: ChildServer | null = null;
  try {
    const user = await seedUser(throwaway.app);
    const corpusId = await seedProject(throwaway.app, user, 'Populate');
    const t0 = performance.now();
    await seedPages(throwaway.app, corpusId);
    console.log(
      `${dialect}: ${ELEMENTS} pages made in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    server = await startChildServer(throwaway.config);
    const bench: Bench = { app: throwaway.app, server, user, userRow: { id: user.id }, corpusId };
    const idleKb = statusKb(server.process.pid!, 'VmRSS');
    // One unmeasured run each: the server's first queries and the file cache warm up.
    await throughApi(bench);
    await bare(bench);
    const api: { ms: number; peakKb: number; startKb: number }[] = [];
    const raw: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const pair = [
        async () => api.push(await throughApi(bench)),
        async () => raw.push((await bare(bench)).ms),
      ];
      for (const side of round % 2 ? pair.reverse() : pair) await side();
    }
    const apiMs = api.map((run) => run.ms);
    const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
    console.log(
      `\n${dialect}: populate ${ELEMENTS} elements (80/10/10), ${ROUNDS} rounds (median)`,
    );
    console.log(`  through the API (POST → job processed): ${median(apiMs).toFixed(0)} ms`);
    console.log(`  bare INSERT … SELECT through the driver: ${median(raw).toFixed(0)} ms`);
    console.log(
      `  API / bare (median of pairs): ${median(apiMs.map((ms, i) => ms / raw[i]!)).toFixed(2)}×`,
    );
    console.log(
      `  server resident memory: ${mb(idleKb)} idle before the runs; during a populate, peak ` +
        `${mb(median(api.map((run) => run.peakKb)))} (VmHWM), ` +
        `${mb(median(api.map((run) => run.peakKb - run.startKb)))} above its start`,
    );
  } finally {
    await stopBench(server, throwaway);
  }
}

export async function run(): Promise<void> {
  await onEachDialect(benchDialect);
}
