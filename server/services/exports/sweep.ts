/**
 * Keeping exports honest without anyone's help:
 * - an export left created or running by a job that can no longer end it (deleted from the
 *   queue, or given up after its server died) goes to failed, so a new export may start;
 * - done exports are deleted with their files two weeks after they were made, and a file no
 *   export names (its project deleted meanwhile) is removed.
 * The export routes run both before every call, and the server runs them on an interval.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db';
import { nowIso } from '../../clock';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import { INTERRUPTED } from '../../jobs/queue';
import { EXPORT_LIFETIME_MS, exportFilePath } from './exports';

/** Exports whose job ended (or vanished) without ending them go to failed; returns their ids. */
export async function settleInterruptedExports(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('corpus_exports')
    .leftJoin('jobs', 'jobs.id', 'corpus_exports.job_id')
    .select([
      'corpus_exports.id',
      'corpus_exports.state',
      'jobs.id as job',
      'jobs.status',
      'jobs.error',
    ])
    .where('corpus_exports.state', 'in', ['created', 'running'])
    .execute();
  const settled: string[] = [];
  for (const row of rows) {
    // The handler ends its export before its job ends, so an ended job's export was cut short.
    if (row.job !== null && row.status !== 'processed' && row.status !== 'error') continue;
    const result = await db
      .updateTable('corpus_exports')
      .set({ state: 'failed', error: row.error ?? INTERRUPTED, updated: nowIso() })
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) settled.push(row.id);
  }
  return settled;
}

const EXPORT_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.sqlite$/;

/**
 * Deletes done exports made more than two weeks before `now`, with their files, and the
 * export files no export names. Returns the ids of the exports deleted.
 */
export async function sweepOldExports(
  db: Db,
  dataDir: string,
  now = Date.now(),
): Promise<string[]> {
  const before = new Date(now - EXPORT_LIFETIME_MS).toISOString();
  const old = await db
    .selectFrom('corpus_exports')
    .select('id')
    .where('state', '=', 'done')
    .where('created', '<', before)
    .execute();
  const ids = old.map((row) => row.id);
  if (ids.length > 0) {
    await db.deleteFrom('corpus_exports').where('id', 'in', ids).execute();
    for (const id of ids) await fs.rm(exportFilePath(dataDir, id), { force: true });
  }
  await removeOrphanFiles(db, dataDir);
  return ids;
}

/** Files of exports whose rows are gone (a deleted project takes its exports' rows alone). */
async function removeOrphanFiles(db: Db, dataDir: string): Promise<void> {
  const folder = path.dirname(exportFilePath(dataDir, 'x'));
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return;
  }
  // Temporary files of exports being built start with a dot and are left to their builder.
  const named = names.flatMap((name) => {
    const match = EXPORT_FILE.exec(name);
    return match ? [match[1]!] : [];
  });
  if (named.length === 0) return;
  const known = new Set<string>();
  for (const part of chunks(named, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('corpus_exports')
      .select('id')
      .where('id', 'in', part)
      .execute();
    for (const row of rows) known.add(row.id);
  }
  for (const id of named) {
    if (!known.has(id)) await fs.rm(exportFilePath(dataDir, id), { force: true });
  }
}
