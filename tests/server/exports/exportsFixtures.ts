/** What the project export suites share: exports made straight in the database, and aging. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ExportState } from '../../../server/db/schema';
import { exportFilePath } from '../../../server/services/exports/exports';

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

export const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS).toISOString();

/** An export row as a past export left it, with a file when done (unless told otherwise). */
export async function insertExport(
  app: FastifyInstance,
  corpusId: string,
  userId: string,
  options: { state?: ExportState; created?: string; file?: boolean; jobId?: string | null } = {},
): Promise<string> {
  const id = randomUUID();
  const state = options.state ?? 'done';
  const created = options.created ?? new Date().toISOString();
  await app.db
    .insertInto('corpus_exports')
    .values({
      id,
      corpus_id: corpusId,
      user_id: userId,
      state,
      source: 'default',
      job_id: options.jobId ?? null,
      error: null,
      size: null,
      created,
      updated: created,
    })
    .execute();
  if (options.file ?? state === 'done') {
    const file = exportFilePath(app.config.dataDir, id);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'not really SQLite');
  }
  return id;
}

/** Moves an export's creation back in time, as if made `hours` ago. */
export async function ageExport(app: FastifyInstance, id: string, hours: number): Promise<void> {
  await app.db
    .updateTable('corpus_exports')
    .set({ created: hoursAgo(hours) })
    .where('id', '=', id)
    .execute();
}

export async function exportRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('corpus_exports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function fileExists(app: FastifyInstance, id: string): boolean {
  return fs.existsSync(exportFilePath(app.config.dataDir, id));
}
