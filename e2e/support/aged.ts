import path from 'node:path';
import Database from 'better-sqlite3';
import { E2E_DATA_DIR } from '../../playwright.config';

/** The tables of a project's content: what a user reads and edits, not accounts or sessions. */
const CONTENT_TABLES = [
  'corpora',
  'element_types',
  'memberships',
  'images',
  'elements',
  'element_links',
  'transcriptions',
  'ml_classes',
  'classifications',
  'metadata',
  'allowed_metadata',
  'entity_types',
  'transcription_entities',
  'workers',
  'worker_versions',
  'worker_configurations',
  'models',
  'model_versions',
  'processes',
  'worker_runs',
  'data_files',
  'datasets',
  'dataset_sets',
  'dataset_elements',
];

/**
 * Dates every row of the e2e server's content as made `days` earlier, as data imported last
 * week is: caching, versions and dates only bite on rows that are hours or days old (a browser
 * keeps an answer whose Last-Modified is a day old for hours, a version read then is a day old).
 */
export function ageContent(days: number): void {
  const db = new Database(path.join(E2E_DATA_DIR, 'folia.sqlite3'));
  try {
    db.pragma('busy_timeout = 10000');
    const shift = `-${days} days`;
    db.transaction(() => {
      for (const table of CONTENT_TABLES) {
        const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map(
          (column) => column.name,
        );
        for (const column of ['created', 'updated'].filter((name) => columns.includes(name))) {
          db.prepare(
            `UPDATE ${table} SET ${column} = strftime('%Y-%m-%dT%H:%M:%fZ', ${column}, ?)
             WHERE ${column} IS NOT NULL`,
          ).run(shift);
        }
      }
    })();
  } finally {
    db.close();
  }
}
