/**
 * Full-text search over 1,000,000 transcription lines (SEARCH_BENCH_LINES for another size, e.g.
 * 100000 for a quick run; 10,000 at least: one folder), with the server as a process of its own
 * answering over HTTP, on SQLite and on PostgreSQL when reachable:
 * - loading: 100 folders × 200 pages × 50 lines, each line with a transcription, written as plain
 *   SQL straight into the schema through the driver, the search triggers firing as on any write;
 *   texts drawn with a seeded generator from the words of the PAGE and ALTO files of
 *   /work/shared/data (long s, accents, combining marks), a third of them real lines whole (for
 *   phrases), plus a few rare words so that some queries hit few lines;
 * - index build: the server's follower indexing every pending element after the load, then the
 *   reindex job (POST /corpus/{id}/index/ until the job is processed; SEARCH_BENCH_REINDEX=0
 *   skips it; SEARCH_BENCH_DIALECT=sqlite or postgres runs one database only);
 * - 20 queries covering the syntax, each SEARCH_BENCH_RUNS times (10 by default): p50 and p95 of
 *   GET /corpus/{id}/search/, beside the bare SQL the answer needs (the FTS5 MATCH or tsquery
 *   written by hand: the count and the first page, through better-sqlite3 on the same file or
 *   pg), sides alternating from one run to the next; the ratio is the median of the pairs.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../server/config';
import { parseAlto } from '../server/imports/formats/alto';
import { parsePageXml } from '../server/imports/formats/pagexml';
import { below, seededGenerator } from '../server/services/datasets/draw';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { postgresLoadFolder, sqliteFolderLoader, type FolderRows } from './folderRows';
import { seedProject, seedUser, type BenchUser, type DialectName } from './seed';
import { median, onEachDialect, sleep, stopBench } from './serverProcess';

const LINES = Number(process.env.SEARCH_BENCH_LINES ?? 1_000_000);
const RUNS = Math.max(10, Number(process.env.SEARCH_BENCH_RUNS ?? 10));
/** The longest wait for the follower to index the load before the pending rest is dropped. */
const FOLLOW_CAP_S = Number(process.env.SEARCH_BENCH_FOLLOW_CAP ?? 1200);
/** SEARCH_BENCH_REINDEX=0 skips timing the reindex job (it rebuilds the whole index again). */
const REINDEX = process.env.SEARCH_BENCH_REINDEX !== '0';
/** SEARCH_BENCH_DIALECT=sqlite or postgres runs one database only. */
const DIALECT = process.env.SEARCH_BENCH_DIALECT;
const SEED = 16;
const PAGES_PER_FOLDER = 200;
const LINES_PER_PAGE = 50;
const FOLDERS = Math.max(1, Math.round(LINES / (PAGES_PER_FOLDER * LINES_PER_PAGE)));
const TOTAL_LINES = FOLDERS * PAGES_PER_FOLDER * LINES_PER_PAGE;
/** Lines that are a real line of the ground truth, whole; the others are drawn word by word. */
const REAL_LINE_SHARE = 0.3;
/** One line in twenty is a marginal note: a type of its own, for the facet filter. */
const MARGIN_SHARE = 0.05;
/** Words added to a line with these odds, so some queries hit a few lines among a million. */
const RARE_WORDS: [string, number][] = [
  ['Apfelbaum', 2e-5],
  ['Menſchheit', 1e-4],
  ['Menschheit', 2e-5],
  ['MENSCHHEIT', 2e-5],
  ['Saint-Louis', 5e-5],
];
const DATA = '/work/shared/data';
const TWO_32 = 2 ** 32;

interface Vocabulary {
  lines: string[];
  words: string[];
  /** Cumulative counts of `words` in the ground truth: words are drawn as often as they occur. */
  cumulative: Uint32Array;
}

function xmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return xmlFiles(full);
    return entry.name.endsWith('.xml') ? [full] : [];
  });
}

function readVocabulary(): Vocabulary {
  const lines = xmlFiles(DATA)
    .sort()
    .flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const page = /<alto[\s>]/.test(text) ? parseAlto(text) : parsePageXml(text);
      return page.regions.flatMap((region) => region.lines.map((line) => line.text.trim()));
    })
    .filter((text) => text !== '');
  const counts = new Map<string, number>();
  for (const line of lines) {
    for (const word of line.split(/\s+/)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words = [...counts.keys()].sort();
  const cumulative = new Uint32Array(words.length);
  let total = 0;
  words.forEach((word, i) => (cumulative[i] = total += counts.get(word)!));
  return { lines, words, cumulative };
}

/** The text of a line: a real line, or 5 to 10 words drawn by frequency, maybe with rare words. */
function lineText(vocabulary: Vocabulary, next: () => number): string {
  const { lines, words, cumulative } = vocabulary;
  let parts: string[];
  if (next() / TWO_32 < REAL_LINE_SHARE) parts = lines[below(next, lines.length)]!.split(' ');
  else {
    parts = [];
    const length = 5 + below(next, 6);
    const total = cumulative[cumulative.length - 1]!;
    for (let i = 0; i < length; i += 1) {
      const draw = below(next, total);
      let low = 0;
      let high = cumulative.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (cumulative[middle]! > draw) high = middle;
        else low = middle + 1;
      }
      parts.push(words[low]!);
    }
  }
  for (const [word, odds] of RARE_WORDS) {
    if (next() / TWO_32 < odds) parts.splice(below(next, parts.length + 1), 0, word);
  }
  return parts.join(' ');
}

/** Ids in the UUID format, from a kind and a counter: the same rows on every run. */
const uuid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** One folder's rows, ready for either driver. */
function folderRows(
  folder: number,
  types: Record<string, string>,
  vocabulary: Vocabulary,
  next: () => number,
): FolderRows {
  const rows: FolderRows = { elements: [], links: [], transcriptions: [] };
  const folderId = uuid(1, folder);
  rows.elements.push({
    id: folderId,
    type: types.folder!,
    name: `Folder ${String(folder + 1).padStart(3, '0')}`,
    top: 1,
  });
  for (let p = 0; p < PAGES_PER_FOLDER; p += 1) {
    const pageNumber = folder * PAGES_PER_FOLDER + p;
    const pageId = uuid(2, pageNumber);
    rows.elements.push({ id: pageId, type: types.page!, name: `Page ${p + 1}`, top: 0 });
    rows.links.push({ parent: folderId, child: pageId, position: p });
    for (let l = 0; l < LINES_PER_PAGE; l += 1) {
      const lineNumber = pageNumber * LINES_PER_PAGE + l;
      const lineId = uuid(3, lineNumber);
      const margin = next() / TWO_32 < MARGIN_SHARE;
      rows.elements.push({
        id: lineId,
        type: margin ? types.margin! : types.text_line!,
        name: `Line ${l + 1}`,
        top: 0,
      });
      rows.links.push({ parent: pageId, child: lineId, position: l });
      rows.transcriptions.push({
        id: uuid(4, lineNumber),
        element: lineId,
        text: lineText(vocabulary, next),
        confidence: Math.round((0.5 + (next() / TWO_32) * 0.5) * 1000) / 1000,
      });
    }
  }
  return rows;
}

/** The bare side: the database through its own driver, beside the server. */
interface Raw {
  /** Runs one statement, answering its rows. */
  all(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Writes one folder's rows in one transaction. */
  load(rows: FolderRows, corpusId: string, now: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteRaw(config: Config): Raw {
  const db = new BetterSqlite3(path.join(config.dataDir, 'folia.sqlite3'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const load = sqliteFolderLoader(db);
  return {
    all: async (text, params) => db.prepare(text).all(...params) as Record<string, unknown>[],
    load: async (rows, corpusId, now) => load(rows, corpusId, now),
    close: async () => void db.close(),
  };
}

async function postgresRaw(config: Config): Promise<Raw> {
  const client = new pg.Client({
    connectionString: config.databaseUrl!,
    options: `-c search_path=${config.databaseSchema} -c jit=off`,
  });
  await client.connect();
  return {
    all: async (text, params) => (await client.query(text, params)).rows,
    load: (rows, corpusId, now) => postgresLoadFolder(client, rows, corpusId, now),
    close: () => client.end(),
  };
}

/**
 * A query of the benchmark: the API's parameters, and the same search by hand for the bare
 * side: `fts` an FTS5 MATCH expression, `tsquery` a tsquery text (null for every document),
 * `negate` for a lone `-x` (every document that does not match).
 */
interface BenchQuery {
  label: string;
  params: Record<string, string>;
  fts: string | null;
  tsquery: string | null;
  negate?: boolean;
}

const QUERIES: BenchQuery[] = [
  {
    label: 'rare word',
    params: { query: 'Apfelbaum' },
    fts: '"apfelbaum"',
    tsquery: `'apfelbaum'`,
  },
  { label: 'common word', params: { query: 'de' }, fts: '"de"', tsquery: `'de'` },
  {
    label: 'two words (OR)',
    params: { query: 'Jean Louis' },
    fts: '"jean" OR "louis"',
    tsquery: `'jean' | 'louis'`,
  },
  {
    label: 'AND',
    params: { query: 'Jean + Louis' },
    fts: '"jean" AND "louis"',
    tsquery: `'jean' & 'louis'`,
  },
  { label: '-x alone', params: { query: '-de' }, fts: '"de"', tsquery: `'de'`, negate: true },
  {
    label: 'a + -b',
    params: { query: 'Louis + -de' },
    fts: '"louis" NOT "de"',
    tsquery: `'louis' & !'de'`,
  },
  {
    label: 'phrase',
    params: { query: '"sapience sen ala"' },
    fts: '"sapience sen ala"',
    tsquery: `'sapience' <-> 'sen' <-> 'ala'`,
  },
  { label: 'prefix', params: { query: 'Garten*' }, fts: '"garten" *', tsquery: `'garten':*` },
  {
    label: 'hyphenated word',
    params: { query: 'Saint-Louis' },
    fts: '"saint louis"',
    tsquery: `'saint' <-> 'louis'`,
  },
  {
    label: 'nested parentheses',
    params: { query: '(Jean + (Louis | nicolas)) + -de' },
    fts: '("jean" AND ("louis" OR "nicolas")) NOT "de"',
    tsquery: `('jean' & ('louis' | 'nicolas')) & !'de'`,
  },
  {
    label: 'long s folded',
    params: { query: 'Menschheit' },
    fts: '"menschheit"',
    tsquery: `'menschheit'`,
  },
  {
    label: 'long s typed',
    params: { query: 'Menſchheit' },
    fts: '"menschheit"',
    tsquery: `'menschheit'`,
  },
  { label: 'accents folded', params: { query: 'clerge' }, fts: '"clerge"', tsquery: `'clerge'` },
  {
    label: 'combining mark',
    params: { query: 'sapiẽ' },
    fts: '"sapie"',
    tsquery: `'sapie'`,
  },
  {
    label: 'sort=element_name',
    params: { query: 'Louis', sort: 'element_name' },
    fts: '"louis"',
    tsquery: `'louis'`,
  },
  {
    label: 'facet filter',
    params: { query: 'Louis', element_type: 'margin' },
    fts: '"louis"',
    tsquery: `'louis'`,
  },
  {
    label: 'only_facets',
    params: { query: 'de', only_facets: 'true' },
    fts: '"de"',
    tsquery: `'de'`,
  },
  { label: 'page 50', params: { query: 'Louis', page: '50' }, fts: '"louis"', tsquery: `'louis'` },
  { label: '* (everything)', params: { query: '*' }, fts: null, tsquery: null },
  {
    label: 'sources=transcription',
    params: { query: 'nicolas', sources: 'transcription' },
    fts: '"nicolas"',
    tsquery: `'nicolas'`,
  },
];

/**
 * The bare SQL of a query: the count of matching documents and the page asked for (relevance
 * order where there is a match, else by id; by element name when asked), or for only_facets the
 * count and the element type facet.
 */
function bareStatements(
  dialect: DialectName,
  query: BenchQuery,
  corpusId: string,
  marginTypeId: string,
): { text: string; params: unknown[] }[] {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return dialect === 'postgres' ? `$${params.length}` : '?';
  };
  const where = [`d.corpus_id = ${bind(corpusId)}`];
  let from = 'search_documents d';
  let rank: string | null = null;
  const match = dialect === 'postgres' ? query.tsquery : query.fts;
  if (match !== null && dialect === 'postgres') {
    const q = `${bind(match)}::tsquery`;
    where.push(query.negate ? `NOT (d.tsv @@ ${q})` : `d.tsv @@ ${q}`);
    if (!query.negate) rank = `ts_rank(d.tsv, ${q}) DESC`;
  } else if (match !== null && query.negate) {
    where.push(`d.id NOT IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ${bind(match)})`);
  } else if (match !== null) {
    from = 'search_fts JOIN search_documents d ON d.id = search_fts.rowid';
    where.push(`search_fts MATCH ${bind(match)}`);
    rank = 'bm25(search_fts)';
  }
  if (query.params.element_type) where.push(`d.type_id = ${bind(marginTypeId)}`);
  if (query.params.sources) where.push(`d.source = ${bind(query.params.sources)}`);
  const filtered = `FROM ${from} WHERE ${where.join(' AND ')}`;
  const count = { text: `SELECT count(*) AS n ${filtered}`, params };
  if (query.params.only_facets) {
    return [
      count,
      { text: `SELECT d.type_id, count(*) AS n ${filtered} GROUP BY d.type_id`, params },
    ];
  }
  const offset = (Number(query.params.page ?? 1) - 1) * 20;
  const page =
    query.params.sort === 'element_name'
      ? `SELECT d.id, d.source, d.item_id, d.element_id FROM ${from}
           JOIN elements e ON e.id = d.element_id WHERE ${where.join(' AND ')}
           ORDER BY e.name, d.id LIMIT 20 OFFSET ${offset}`
      : `SELECT d.id, d.source, d.item_id, d.element_id ${filtered}
           ORDER BY ${rank ? `${rank}, ` : ''}d.id LIMIT 20 OFFSET ${offset}`;
  return [count, { text: page, params }];
}

interface Bench {
  app: FastifyInstance;
  server: ChildServer;
  user: BenchUser;
  corpusId: string;
  raw: Raw;
  dialect: DialectName;
  marginTypeId: string;
}

/** One API call, in ms, with the count it answered. */
async function throughApi(bench: Bench, query: BenchQuery): Promise<{ ms: number; count: number }> {
  const search = new URLSearchParams(query.params);
  const t0 = performance.now();
  const response = await fetch(
    `${bench.server.url}/api/v1/corpus/${bench.corpusId}/search/?${search}`,
    { headers: bench.user.headers },
  );
  const body = (await response.json()) as { count: number };
  const ms = performance.now() - t0;
  if (response.status !== 200) {
    throw new Error(`search ${search}: ${response.status} ${JSON.stringify(body)}`);
  }
  return { ms, count: body.count };
}

async function bare(bench: Bench, query: BenchQuery): Promise<{ ms: number; count: number }> {
  const statements = bareStatements(bench.dialect, query, bench.corpusId, bench.marginTypeId);
  const t0 = performance.now();
  const [counted] = await bench.raw.all(statements[0]!.text, statements[0]!.params);
  await bench.raw.all(statements[1]!.text, statements[1]!.params);
  return { ms: performance.now() - t0, count: Number(counted!.n) };
}

const percentile = (values: number[], share: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)] ?? 0;
};

async function pendingRows(bench: Pick<Bench, 'raw'>): Promise<number> {
  const [row] = await bench.raw.all('SELECT count(*) AS n FROM search_pending', []);
  return Number(row!.n);
}

async function documentCount(bench: Pick<Bench, 'raw' | 'corpusId' | 'dialect'>) {
  const [row] = await bench.raw.all(
    `SELECT count(*) AS n FROM search_documents WHERE corpus_id = ${bench.dialect === 'postgres' ? '$1' : '?'}`,
    [bench.corpusId],
  );
  return Number(row!.n);
}

/** The server's follower indexing what the load left pending; the rest dropped after the cap. */
async function followerCatchUp(bench: Bench): Promise<void> {
  const before = await pendingRows(bench);
  const t0 = performance.now();
  let left = before;
  while (left > 0 && performance.now() - t0 < FOLLOW_CAP_S * 1000) {
    await sleep(250);
    left = await pendingRows(bench);
  }
  const s = (performance.now() - t0) / 1000;
  const documents = await documentCount(bench);
  if (left === 0) {
    console.log(
      `  index build by the follower (${before} pending rows after the load → none): ` +
        `${s.toFixed(1)} s, ${documents} documents`,
    );
  } else {
    console.log(
      `  index build by the follower: ${before - left} of ${before} pending rows in ` +
        `${s.toFixed(0)} s (${documents} documents), stopped at the cap; the rest dropped`,
    );
    await bench.raw.all('DELETE FROM search_pending', []);
  }
}

/** POST /corpus/{id}/index/ → its job processed. */
async function reindexJob(bench: Bench): Promise<void> {
  const t0 = performance.now();
  const response = await fetch(`${bench.server.url}/api/v1/corpus/${bench.corpusId}/index/`, {
    method: 'POST',
    headers: bench.user.headers,
  });
  const body = (await response.json()) as { id?: string; job?: { id: string } };
  if (response.status !== 202)
    throw new Error(`reindex: ${response.status} ${JSON.stringify(body)}`);
  const jobId = body.job?.id ?? body.id!;
  for (;;) {
    const row = await bench.app.db
      .selectFrom('jobs')
      .select(['status', 'error'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    if (row.status === 'processed') break;
    if (row.status === 'error') throw new Error(`reindex job failed: ${row.error}`);
    await sleep(100);
  }
  const s = (performance.now() - t0) / 1000;
  console.log(
    `  index rebuild by the reindex job (POST → job processed): ${s.toFixed(1)} s, ` +
      `${await documentCount(bench)} documents`,
  );
}

/** Page 50 when there are that many pages (the full size), else the last page. */
async function onExistingPage(bench: Bench, query: BenchQuery): Promise<BenchQuery> {
  if (!query.params.page) return query;
  const { page, ...rest } = query.params;
  const { count } = await throughApi(bench, { ...query, params: rest });
  const last = Math.max(1, Math.ceil(count / 20));
  return { ...query, params: { ...rest, page: String(Math.min(Number(page), last)) } };
}

async function timeQuery(bench: Bench, asked: BenchQuery, index: number): Promise<void> {
  const query = await onExistingPage(bench, asked);
  // One unmeasured pair: the server's first plan of the query and the page cache warm up.
  const first = await throughApi(bench, query);
  const check = await bare(bench, query);
  const api: number[] = [];
  const raw: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const pair = [
      async () => api.push((await throughApi(bench, query)).ms),
      async () => raw.push((await bare(bench, query)).ms),
    ];
    for (const side of run % 2 ? pair.reverse() : pair) await side();
  }
  const ratio = median(api.map((ms, i) => ms / raw[i]!));
  const shown = Object.entries(query.params)
    .map(([key, value]) => (key === 'query' ? value : `${key}=${value}`))
    .join(' ');
  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);
  console.log(
    `  ${bench.dialect.padEnd(8)} ${String(index + 1).padStart(2)} ${query.label.padEnd(21)} ` +
      `${shown.padEnd(40)} ${String(first.count).padStart(8)} hits  ` +
      `HTTP p50 ${ms(median(api))} p95 ${ms(percentile(api, 0.95))}  ` +
      `SQL p50 ${ms(median(raw))} p95 ${ms(percentile(raw, 0.95))}  ${ratio.toFixed(1)}×` +
      (first.count === check.count ? '' : `  (bare SQL counts ${check.count})`),
  );
}

async function benchDialect(dialect: DialectName): Promise<void> {
  const throwaway = await makeThrowawayApp(dialect, { label: 'bench' });
  let server: ChildServer | null = null;
  let raw: Raw | null = null;
  try {
    const { app, config } = throwaway;
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Search');
    await app.db.updateTable('corpora').set({ indexable: 1 }).where('id', '=', corpusId).execute();
    await app.db
      .insertInto('element_types')
      .values({
        id: uuid(5, 0),
        corpus_id: corpusId,
        slug: 'margin',
        display_name: 'Marginal note',
        folder: 0,
        color: '6a3d9a',
        indexable: 1,
      })
      .execute();
    const typeRows = await app.db
      .selectFrom('element_types')
      .select(['id', 'slug'])
      .where('corpus_id', '=', corpusId)
      .execute();
    const types = Object.fromEntries(typeRows.map((row) => [row.slug, row.id]));
    raw = dialect === 'postgres' ? await postgresRaw(config) : sqliteRaw(config);

    const vocabulary = readVocabulary();
    const next = seededGenerator(SEED);
    const now = new Date().toISOString();
    const t0 = performance.now();
    for (let folder = 0; folder < FOLDERS; folder += 1) {
      await raw.load(folderRows(folder, types, vocabulary, next), corpusId, now);
    }
    console.log(
      `\n${dialect}: ${FOLDERS} folders × ${PAGES_PER_FOLDER} pages × ${LINES_PER_PAGE} lines = ` +
        `${TOTAL_LINES} lines with a transcription (words of ${vocabulary.lines.length} real ` +
        `lines, ${vocabulary.words.length} distinct words), loaded as SQL with the search ` +
        `triggers firing in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    server = await startChildServer(config);
    const bench: Bench = {
      app,
      server,
      user,
      corpusId,
      raw,
      dialect,
      marginTypeId: types.margin!,
    };
    await followerCatchUp(bench);
    if (REINDEX) await reindexJob(bench);
    if (dialect === 'postgres') await sql`ANALYZE`.execute(app.db);
    console.log(
      `  ${QUERIES.length} queries, ${RUNS} runs each after one unmeasured (p50, p95), beside ` +
        'the bare SQL (count + the page); ratio HTTP / SQL = median of pairs',
    );
    for (const [index, query] of QUERIES.entries()) await timeQuery(bench, query, index);
  } finally {
    await raw?.close();
    await stopBench(server, throwaway);
  }
}

export async function run(): Promise<void> {
  await onEachDialect(async (dialect) => {
    if (!DIALECT || DIALECT === dialect) await benchDialect(dialect);
  });
}
