/**
 * A project of folders → pages → lines written straight into Folia's schema through the
 * database driver (no server code), fast enough for a million elements in a few minutes:
 * FOLDERS × 196 pages × 50 lines, each page on an external IIIF image, each line a polygon on
 * it. Rows are dated three days back, as an archive's rows are, not made a second ago.
 * Ids are UUIDs made from a kind and a counter, so a case can name any element.
 */
import type { PostgresDriver, SqliteDriver } from './rawDriver';

export const PAGES_PER_FOLDER = 196;
export const LINES_PER_PAGE = 50;

export const elementsFor = (folders: number) =>
  folders * (1 + PAGES_PER_FOLDER * (1 + LINES_PER_PAGE));

export const uuid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const folderId = (f: number) => uuid(1, f);
export const pageId = (p: number) => uuid(2, p);
export const lineId = (l: number) => uuid(3, l);
const imageId = (p: number) => uuid(5, p);

export const pageName = (p: number) => `Page ${String(p).padStart(6, '0')}`;

interface Rows {
  elements: unknown[][];
  links: unknown[][];
  images: unknown[][];
}

/** One folder's rows, as positional values in the column order of the INSERTs below. */
function folderRows(
  f: number,
  corpusId: string,
  types: Record<string, string>,
  created: string,
): Rows {
  const rows: Rows = { elements: [], links: [], images: [] };
  const folder = folderId(f);
  // id, corpus, type, name, image, polygon, confidence, top_level, children_updated
  rows.elements.push([
    folder,
    corpusId,
    types.folder,
    `Folder ${String(f).padStart(4, '0')}`,
    null,
    null,
    null,
    1,
    created,
  ]);
  for (let i = 0; i < PAGES_PER_FOLDER; i += 1) {
    const p = f * PAGES_PER_FOLDER + i;
    const page = pageId(p);
    const image = imageId(p);
    rows.images.push([image, corpusId, `https://iiif.example.org/iiif/2/p${p}.jpg`]);
    rows.elements.push([
      page,
      corpusId,
      types.page,
      pageName(p),
      image,
      '[[0,0],[0,3000],[2000,3000],[2000,0],[0,0]]',
      null,
      0,
      created,
    ]);
    rows.links.push([folder, page, i]);
    for (let j = 0; j < LINES_PER_PAGE; j += 1) {
      const l = p * LINES_PER_PAGE + j;
      const y = 20 + j * 58;
      rows.elements.push([
        lineId(l),
        corpusId,
        types.text_line,
        `Line ${String(j).padStart(2, '0')}`,
        image,
        `[[100,${y}],[1900,${y}],[1900,${y + 50}],[100,${y + 50}],[100,${y}]]`,
        (j % 10) / 10,
        0,
        null,
      ]);
      rows.links.push([page, lineId(l), j]);
    }
  }
  return rows;
}

export interface LoadOptions {
  corpusId: string;
  types: Record<string, string>;
  folders: number;
  log?: (line: string) => void;
}

const ELEMENT_COLUMNS = `id, corpus_id, type_id, name, image_id, polygon, confidence, top_level,
  children_updated, rotation_angle, mirrored, created, updated`;

export async function loadProject(
  raw: SqliteDriver | PostgresDriver,
  { corpusId, types, folders, log = console.log }: LoadOptions,
): Promise<void> {
  const created = new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString();
  const started = performance.now();
  const write =
    raw.dialect === 'sqlite' ? sqliteWriter(raw, created) : postgresWriter(raw, created);
  for (let f = 0; f < folders; f += 1) {
    await write(folderRows(f, corpusId, types, created));
    if ((f + 1) % 10 === 0 || f + 1 === folders) {
      const done = elementsFor(f + 1);
      const seconds = (performance.now() - started) / 1000;
      log(`  ${done.toLocaleString('en')} elements in ${seconds.toFixed(0)} s`);
    }
  }
  // The search index would follow this load in the server: not what these figures are about.
  await raw.exec('DELETE FROM search_pending');
  await raw.exec(raw.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
}

function sqliteWriter(raw: SqliteDriver, created: string) {
  const element = raw.db.prepare(
    `INSERT INTO elements (${ELEMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?)`,
  );
  const link = raw.db.prepare(
    'INSERT INTO element_links (parent_id, child_id, position, created) VALUES (?, ?, ?, ?)',
  );
  const image = raw.db.prepare(
    `INSERT INTO images (id, corpus_id, url, width, height, status, created)
     VALUES (?, ?, ?, 2000, 3000, 'checked', ?)`,
  );
  const load = raw.db.transaction((rows: Rows) => {
    for (const row of rows.images) image.run(...row, created);
    for (const row of rows.elements) element.run(...row, created, created);
    for (const row of rows.links) link.run(...row, created);
  });
  return async (rows: Rows) => load(rows);
}

function postgresWriter(raw: PostgresDriver, created: string) {
  const column = (rows: unknown[][], i: number) => rows.map((row) => row[i]);
  return async (rows: Rows) => {
    const { client } = raw;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO images (id, corpus_id, url, width, height, status, created)
       SELECT id, corpus, url, 2000, 3000, 'checked', $4
       FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, corpus, url)`,
      [column(rows.images, 0), column(rows.images, 1), column(rows.images, 2), created],
    );
    await client.query(
      `INSERT INTO elements (${ELEMENT_COLUMNS})
       SELECT id, corpus, type, name, image, polygon, confidence, top, changed, 0, 0, $10, $10
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
         $7::float8[], $8::int[], $9::text[])
         AS t(id, corpus, type, name, image, polygon, confidence, top, changed)`,
      [...Array.from({ length: 9 }, (_, i) => column(rows.elements, i)), created],
    );
    await client.query(
      `INSERT INTO element_links (parent_id, child_id, position, created)
       SELECT parent, child, position, $4
       FROM unnest($1::text[], $2::text[], $3::int[]) AS t(parent, child, position)`,
      [column(rows.links, 0), column(rows.links, 1), column(rows.links, 2), created],
    );
    await client.query('COMMIT');
  };
}
