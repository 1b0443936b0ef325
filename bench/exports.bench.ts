/**
 * The SQLite project export of EXPORT_BENCH_ELEMENTS elements (100,000 by default: folders of 50
 * pages, each page with 19 lines, each line with a transcription), with the server as a process
 * of its own answering over HTTP, on SQLite and on PostgreSQL when reachable
 * (EXPORT_BENCH_DIALECT=sqlite or postgres runs one only):
 * - the rows are written as plain SQL straight into the schema through the driver; the search
 *   index's pending marks are dropped afterwards, so the server does not index while it exports;
 * - POST /corpus/{id}/export/ → the export listed `done` (polled every 100 ms): the time, the
 *   server process' peak resident memory while it exported (VmHWM, reset before the POST) beside
 *   its resident memory before, and the file's size;
 * - the baseline: the same rows read with bare SQL through the database's own driver
 *   (better-sqlite3 on the same file, or pg): the elements, their transcriptions and their
 *   parent links, every row fetched; the ratio is export time / bare read time.
 */
import fs from 'node:fs';
import { exportFilePath } from '../server/services/exports/exports';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { postgresLoadFolder, sqliteFolderLoader, type FolderRows } from './folderRows';
import { openRaw, type PostgresDriver, type RawDriver } from './rawDriver';
import { seedProject, seedUser, type DialectName } from './seed';
import { onEachDialect, resetPeak, sleep, statusKb, stopBench } from './serverProcess';

const ELEMENTS = Math.max(1000, Number(process.env.EXPORT_BENCH_ELEMENTS ?? 100_000));
const DIALECT = process.env.EXPORT_BENCH_DIALECT;
const LINES_PER_PAGE = 19;
const PAGES_PER_FOLDER = 50;
const PAGES = Math.ceil(ELEMENTS / (LINES_PER_PAGE + 1));
const FOLDERS = Math.ceil(PAGES / PAGES_PER_FOLDER);
/** The longest wait for the export before the run gives up. */
const CAP_MS = 30 * 60 * 1000;

/** Ids in the UUID format, from a kind and a counter. */
const uuid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function folderRows(folder: number, types: Record<string, string>): FolderRows {
  const rows: FolderRows = { elements: [], links: [], transcriptions: [] };
  const folderId = uuid(1, folder);
  rows.elements.push({ id: folderId, type: types.folder!, name: `Folder ${folder + 1}`, top: 1 });
  const first = folder * PAGES_PER_FOLDER;
  for (let page = first; page < Math.min(PAGES, first + PAGES_PER_FOLDER); page += 1) {
    const pageId = uuid(2, page);
    rows.elements.push({ id: pageId, type: types.page!, name: `Page ${page + 1}`, top: 0 });
    rows.links.push({ parent: folderId, child: pageId, position: page - first });
    for (let line = 0; line < LINES_PER_PAGE; line += 1) {
      const n = page * LINES_PER_PAGE + line;
      const lineId = uuid(3, n);
      rows.elements.push({ id: lineId, type: types.text_line!, name: `Line ${line + 1}`, top: 0 });
      rows.links.push({ parent: pageId, child: lineId, position: line });
      rows.transcriptions.push({
        id: uuid(4, n),
        element: lineId,
        text: `Ligne ${n} de la page ${page + 1}: Jean Louis, clergé de Saint-Louis`,
        confidence: null,
      });
    }
  }
  return rows;
}

/** What the export reads, as bare SQL: the elements, their transcriptions and parent links. */
const BARE_READS = [
  `SELECT id, type_id, name, image_id, polygon, rotation_angle, mirrored, confidence,
     worker_run_id, created, updated FROM elements WHERE corpus_id = $1`,
  `SELECT t.id, t.element_id, t.text, t.confidence, t.orientation, t.worker_run_id
     FROM transcriptions t JOIN elements e ON e.id = t.element_id WHERE e.corpus_id = $1`,
  `SELECT l.parent_id, l.child_id, l.position
     FROM element_links l JOIN elements e ON e.id = l.child_id WHERE e.corpus_id = $1`,
];

async function bareRead(raw: RawDriver, corpusId: string): Promise<{ ms: number; rows: number }> {
  const t0 = performance.now();
  let rows = 0;
  for (const text of BARE_READS) rows += (await raw.all(text, [corpusId])).length;
  return { ms: performance.now() - t0, rows };
}

/** POST the export, then poll the list until it is done; the time in ms and the export's id. */
async function exportThroughApi(
  server: ChildServer,
  headers: Record<string, string>,
  corpusId: string,
): Promise<{ ms: number; id: string }> {
  const t0 = performance.now();
  const started = await fetch(`${server.url}/api/v1/corpus/${corpusId}/export/`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'default' }),
  });
  const body = (await started.json()) as { id: string };
  if (started.status !== 201) throw new Error(`start: ${started.status} ${JSON.stringify(body)}`);
  for (;;) {
    const listed = await fetch(`${server.url}/api/v1/corpus/${corpusId}/export/`, { headers });
    const page = (await listed.json()) as { results: { id: string; state: string }[] };
    const state = page.results.find((e) => e.id === body.id)?.state;
    if (state === 'done') return { ms: performance.now() - t0, id: body.id };
    if (state === 'failed') throw new Error('the export failed');
    if (performance.now() - t0 > CAP_MS) throw new Error('the export took too long');
    await sleep(100);
  }
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function benchDialect(dialect: DialectName): Promise<void> {
  const throwaway = await makeThrowawayApp(dialect, { label: 'bench' });
  let server: ChildServer | null = null;
  let raw: RawDriver | null = null;
  try {
    const { app, config } = throwaway;
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Export');
    const typeRows = await app.db
      .selectFrom('element_types')
      .select(['id', 'slug'])
      .where('corpus_id', '=', corpusId)
      .execute();
    const types = Object.fromEntries(typeRows.map((row) => [row.slug, row.id]));
    const driver = await openRaw(config);
    raw = driver;
    const now = new Date().toISOString();
    const t0 = performance.now();
    const loadSqlite = driver.dialect === 'sqlite' ? sqliteFolderLoader(driver.db) : null;
    for (let folder = 0; folder < FOLDERS; folder += 1) {
      const rows = folderRows(folder, types);
      if (loadSqlite) loadSqlite(rows, corpusId, now);
      else await postgresLoadFolder((driver as PostgresDriver).client, rows, corpusId, now);
    }
    // The search index would follow this load in the server while it exports: not measured here.
    await raw.exec('DELETE FROM search_pending');
    if (dialect === 'postgres') await raw.exec('ANALYZE');
    const elements = FOLDERS + PAGES * (LINES_PER_PAGE + 1);
    console.log(
      `\n${dialect}: ${elements} elements (${FOLDERS} folders, ${PAGES} pages, ` +
        `${PAGES * LINES_PER_PAGE} lines with a transcription), loaded as SQL in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    server = await startChildServer(config);
    const pid = server.process.pid!;
    const before = statusKb(pid, 'VmRSS');
    resetPeak(pid);
    const exported = await exportThroughApi(server, user.headers, corpusId);
    const peak = statusKb(pid, 'VmHWM');
    const size = fs.statSync(exportFilePath(config.dataDir, exported.id)).size;
    const bare = await bareRead(raw, corpusId);
    console.log(
      `  export (POST → listed done): ${(exported.ms / 1000).toFixed(1)} s, ` +
        `file ${(size / 1024 / 1024).toFixed(1)} MB; server resident ${mb(before)} before, ` +
        `peak ${mb(peak)} while exporting (+${mb(peak - before)})`,
    );
    console.log(
      `  bare SQL read of the same rows (${bare.rows} rows: elements, transcriptions, links): ` +
        `${(bare.ms / 1000).toFixed(2)} s; export / bare read = ` +
        `${(exported.ms / bare.ms).toFixed(1)}×`,
    );
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
