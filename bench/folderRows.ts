/**
 * A folder's rows written straight into the schema through the database's own driver, as the
 * export and search benchmarks load their projects: elements, their parent links and their
 * lines' transcriptions, one transaction a folder.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

export interface FolderRows {
  elements: { id: string; type: string; name: string; top: number }[];
  links: { parent: string; child: string; position: number }[];
  transcriptions: { id: string; element: string; text: string; confidence: number | null }[];
}

export type FolderLoader = (rows: FolderRows, corpusId: string, now: string) => void;

/** Prepared once; each call is one transaction. */
export function sqliteFolderLoader(db: BetterSqlite3.Database): FolderLoader {
  const element = db.prepare(
    `INSERT INTO elements (id, corpus_id, type_id, name, rotation_angle, mirrored, created,
       updated, top_level) VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?)`,
  );
  const link = db.prepare(
    'INSERT INTO element_links (parent_id, child_id, position, created) VALUES (?, ?, ?, ?)',
  );
  const transcription = db.prepare(
    `INSERT INTO transcriptions (id, element_id, text, confidence, created, updated)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  return db.transaction((rows: FolderRows, corpusId: string, now: string) => {
    for (const row of rows.elements)
      element.run(row.id, corpusId, row.type, row.name, now, now, row.top);
    for (const row of rows.links) link.run(row.parent, row.child, row.position, now);
    for (const row of rows.transcriptions) {
      transcription.run(row.id, row.element, row.text, row.confidence, now, now);
    }
  });
}

/** Each table in one statement over arrays (unnest), the three in one transaction. */
export async function postgresLoadFolder(
  client: pg.Client,
  rows: FolderRows,
  corpusId: string,
  now: string,
): Promise<void> {
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO elements (id, corpus_id, type_id, name, rotation_angle, mirrored, created,
       updated, top_level)
     SELECT id, $1, type_id, name, 0, 0, $2, $2, top FROM unnest($3::text[], $4::text[],
       $5::text[], $6::int[]) AS t(id, type_id, name, top)`,
    [
      corpusId,
      now,
      rows.elements.map((row) => row.id),
      rows.elements.map((row) => row.type),
      rows.elements.map((row) => row.name),
      rows.elements.map((row) => row.top),
    ],
  );
  await client.query(
    `INSERT INTO element_links (parent_id, child_id, position, created)
     SELECT parent, child, position, $1 FROM unnest($2::text[], $3::text[], $4::int[])
       AS t(parent, child, position)`,
    [
      now,
      rows.links.map((row) => row.parent),
      rows.links.map((row) => row.child),
      rows.links.map((row) => row.position),
    ],
  );
  await client.query(
    `INSERT INTO transcriptions (id, element_id, text, confidence, created, updated)
     SELECT id, element, text, confidence, $1, $1 FROM unnest($2::text[], $3::text[],
       $4::text[], $5::float8[]) AS t(id, element, text, confidence)`,
    [
      now,
      rows.transcriptions.map((row) => row.id),
      rows.transcriptions.map((row) => row.element),
      rows.transcriptions.map((row) => row.text),
      rows.transcriptions.map((row) => row.confidence),
    ],
  );
  await client.query('COMMIT');
}
