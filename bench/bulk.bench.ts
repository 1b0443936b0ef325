/**
 * Bulk actions on the selection over 100,000 elements (FOLIA_BENCH_BULK for another size): a
 * selection of 10,000 pages (the most a selection holds), each with its lines, in a folder. The
 * server is a process of its own answering over HTTP, on SQLite and on PostgreSQL when reachable:
 * - through the API: POST /elements/selection/move/ (to the other folder) and DELETE
 *   /corpus/{id}/selection/ (the pages with their lines), each from the call to its job
 *   processed, with the server process' peak resident memory over that time (VmHWM, reset
 *   before each run);
 * - bare: the same change as plain SQL through the driver (better-sqlite3 on the same database
 *   file, or pg): the links replaced in one transaction, or one recursive DELETE.
 * Sides alternate from one round to the next; ratios are medians of the rounds' pairs.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createElements } from '../server/services/elements/create';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { seedProject, seedUser, type BenchUser, type DialectName } from './seed';
import { median, onEachDialect, resetPeak, sleep, statusKb, stopBench } from './serverProcess';

const ELEMENTS = Number(process.env.FOLIA_BENCH_BULK ?? 100_000);
const ROUNDS = Number(process.env.FOLIA_BENCH_ROUNDS ?? 3);
/**
 * A deletion needs its 100,000 elements made again before each side (about 10 s), so it runs
 * fewer rounds, and no warm-up pair: the moves before it have warmed the server.
 */
const DELETE_ROUNDS = Number(process.env.FOLIA_BENCH_DELETE_ROUNDS ?? 1);
/** Selected pages; the rest of ELEMENTS are their lines. */
const PAGES = Math.min(10_000, ELEMENTS);
const LINES_PER_PAGE = Math.max(0, Math.round(ELEMENTS / PAGES) - 1);

interface Bench {
  app: FastifyInstance;
  server: ChildServer;
  user: BenchUser;
  corpusId: string;
  folders: { From: string; To: string };
  types: Record<string, string>;
}

/** The pages and their lines in `From`, all pages selected. */
async function seedSelection(bench: Bench): Promise<void> {
  const { app, corpusId, types, folders, user } = bench;
  await app.db.transaction().execute(async (trx) => {
    const pages = await createElements(
      trx,
      Array.from({ length: PAGES }, (_, i) => ({
        corpusId,
        typeId: types.page!,
        name: `Page ${i + 1}`,
        parentId: folders.From,
      })),
    );
    for (let start = 0; start < PAGES; start += 1000) {
      const part = pages.slice(start, start + 1000);
      await createElements(
        trx,
        part.flatMap((pageId, i) =>
          Array.from({ length: LINES_PER_PAGE }, (_, j) => ({
            corpusId,
            typeId: types.text_line!,
            name: `Line ${start + i + 1}.${j + 1}`,
            parentId: pageId,
          })),
        ),
      );
      const created = new Date().toISOString();
      await trx
        .insertInto('selections')
        .values(part.map((id) => ({ user_id: user.id, element_id: id, created })))
        .execute();
    }
  });
}

async function countIn(bench: Bench): Promise<number> {
  const row = await bench.app.db
    .selectFrom('elements')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('corpus_id', '=', bench.corpusId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Where the selected pages are now: the folder holding them. */
async function pagesFolder(bench: Bench): Promise<'From' | 'To'> {
  const row = await bench.app.db
    .selectFrom('element_links')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('parent_id', '=', bench.folders.To)
    .executeTakeFirstOrThrow();
  return Number(row.n) === PAGES ? 'To' : 'From';
}

interface ApiRun {
  ms: number;
  peakKb: number;
  startKb: number;
}

/** One call → its job processed, in ms, with the server's peak memory over that time. */
async function throughApi(bench: Bench, method: string, path: string, body?: unknown) {
  const pid = bench.server.process.pid!;
  resetPeak(pid);
  const startKb = statusKb(pid, 'VmRSS');
  const t0 = performance.now();
  const response = await fetch(`${bench.server.url}/api/v1/${path}`, {
    method,
    headers: {
      ...bench.user.headers,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status !== 204)
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  for (;;) {
    const row = await bench.app.db
      .selectFrom('jobs')
      .select(['status', 'error'])
      .where('user_id', '=', bench.user.id)
      .orderBy('enqueued_at', 'desc')
      .executeTakeFirstOrThrow();
    if (row.status === 'processed') {
      const run: ApiRun = { ms: performance.now() - t0, peakKb: statusKb(pid, 'VmHWM'), startKb };
      await bench.app.db.deleteFrom('jobs').execute();
      return run;
    }
    if (row.status === 'error') throw new Error(`${path} job failed: ${row.error}`);
    await sleep(10);
  }
}

async function apiMove(bench: Bench): Promise<ApiRun> {
  const to = (await pagesFolder(bench)) === 'From' ? 'To' : 'From';
  const run = await throughApi(bench, 'POST', 'elements/selection/move/', {
    corpus_id: bench.corpusId,
    destination: bench.folders[to],
  });
  if ((await pagesFolder(bench)) !== to) throw new Error('the API move left pages behind');
  return run;
}

/**
 * The same move, bare: the selected pages' links replaced by links to the other folder, in
 * selection order, and both folders' children dates moved, in one transaction.
 */
async function bareMove(bench: Bench): Promise<number> {
  const from = await pagesFolder(bench);
  const to = from === 'From' ? 'To' : 'From';
  const now = new Date().toISOString();
  const t0 = performance.now();
  await bench.app.db.transaction().execute(async (trx) => {
    const selected = sql`SELECT element_id FROM selections WHERE user_id = ${bench.user.id}`;
    await sql`DELETE FROM element_links WHERE child_id IN (${selected})`.execute(trx);
    await sql`
      INSERT INTO element_links (parent_id, child_id, position, created)
      SELECT ${bench.folders[to]}, element_id,
             ROW_NUMBER() OVER (ORDER BY created, element_id) - 1, ${now}
      FROM selections WHERE user_id = ${bench.user.id}`.execute(trx);
    await sql`UPDATE elements SET children_updated = ${now}
      WHERE id IN (${bench.folders.From}, ${bench.folders.To})`.execute(trx);
  });
  const ms = performance.now() - t0;
  if ((await pagesFolder(bench)) !== to) throw new Error('the bare move left pages behind');
  return ms;
}

async function apiDelete(bench: Bench): Promise<ApiRun> {
  await seedSelection(bench);
  const run = await throughApi(bench, 'DELETE', `corpus/${bench.corpusId}/selection/`);
  if ((await countIn(bench)) !== 2) throw new Error('the API deletion left elements');
  return run;
}

/** The same deletion, bare: the selected pages and everything under them, one statement. */
async function bareDelete(bench: Bench): Promise<number> {
  await seedSelection(bench);
  const t0 = performance.now();
  await sql`
    WITH RECURSIVE tree(id) AS (
      SELECT element_id FROM selections WHERE user_id = ${bench.user.id}
      UNION
      SELECT element_links.child_id FROM element_links JOIN tree ON element_links.parent_id = tree.id
    )
    DELETE FROM elements WHERE id IN (SELECT id FROM tree)`.execute(bench.app.db);
  const ms = performance.now() - t0;
  if ((await countIn(bench)) !== 2) throw new Error('the bare deletion left elements');
  return ms;
}

/** Rounds of pairs, sides alternated, after `warmUp` pairs that are not counted. */
async function pairs(
  api: () => Promise<ApiRun>,
  bare: () => Promise<number>,
  { rounds, warmUp }: { rounds: number; warmUp: number },
) {
  for (let round = 0; round < warmUp; round += 1) {
    await api();
    await bare();
  }
  const apiRuns: ApiRun[] = [];
  const bareMs: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const pair = [async () => apiRuns.push(await api()), async () => bareMs.push(await bare())];
    for (const side of round % 2 ? pair.reverse() : pair) await side();
  }
  return { apiRuns, bareMs };
}

function report(label: string, { apiRuns, bareMs }: Awaited<ReturnType<typeof pairs>>) {
  const apiMs = apiRuns.map((run) => run.ms);
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  console.log(`  ${label}`);
  console.log(`    through the API (call → job processed): ${median(apiMs).toFixed(0)} ms`);
  console.log(`    bare SQL through the driver: ${median(bareMs).toFixed(0)} ms`);
  console.log(
    `    API / bare (median of pairs): ${median(apiMs.map((ms, i) => ms / bareMs[i]!)).toFixed(2)}×`,
  );
  console.log(
    `    server peak resident memory ${mb(median(apiRuns.map((run) => run.peakKb)))} (VmHWM), ` +
      `${mb(median(apiRuns.map((run) => run.peakKb - run.startKb)))} above its start`,
  );
}

async function benchDialect(dialect: DialectName): Promise<void> {
  const throwaway = await makeThrowawayApp(dialect, { label: 'bench' });
  let server: ChildServer | null = null;
  try {
    const { app } = throwaway;
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Bulk');
    const typeRows = await app.db
      .selectFrom('element_types')
      .select(['id', 'slug'])
      .where('corpus_id', '=', corpusId)
      .execute();
    const types = Object.fromEntries(typeRows.map((row) => [row.slug, row.id]));
    const [From, To] = await app.db.transaction().execute((trx) =>
      createElements(
        trx,
        ['From', 'To'].map((name) => ({ corpusId, typeId: types.folder!, name, parentId: null })),
      ),
    );
    server = await startChildServer(throwaway.config);
    const bench: Bench = { app, server, user, corpusId, folders: { From: From!, To: To! }, types };
    const t0 = performance.now();
    await seedSelection(bench);
    const total = (await countIn(bench)) - 2;
    console.log(
      `\n${dialect}: ${PAGES} selected pages with ${LINES_PER_PAGE} lines each ` +
        `(${total} elements), made in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
        `${ROUNDS} rounds of moves, ${DELETE_ROUNDS} of deletions (median)`,
    );
    console.log(
      `  server resident memory idle: ${(statusKb(server.process.pid!, 'VmRSS') / 1024).toFixed(0)} MB`,
    );
    report(
      `move ${PAGES} selected pages (${total} elements) to a folder`,
      await pairs(
        () => apiMove(bench),
        () => bareMove(bench),
        { rounds: ROUNDS, warmUp: 1 },
      ),
    );
    await app.db
      .deleteFrom('elements')
      .where('corpus_id', '=', corpusId)
      .where('id', 'not in', [From!, To!])
      .execute();
    report(
      `delete ${PAGES} selected pages with their lines (${total} elements)`,
      await pairs(
        () => apiDelete(bench),
        () => bareDelete(bench),
        { rounds: DELETE_ROUNDS, warmUp: 0 },
      ),
    );
  } finally {
    await stopBench(server, throwaway);
  }
}

export async function run(): Promise<void> {
  await onEachDialect(benchDialect);
}
