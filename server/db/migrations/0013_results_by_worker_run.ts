// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Results looked up by the worker run that made them: a project's worker versions (its local
 * runs' results) and worker results deletion read transcriptions, classifications, metadata and
 * entities by worker run, and worker runs by version; without these they scan whole tables.
 */
const INDEXES: [name: string, table: string, column: string][] = [
  ['transcriptions_worker_run', 'transcriptions', 'worker_run_id'],
  ['classifications_worker_run', 'classifications', 'worker_run_id'],
  ['metadata_worker_run', 'metadata', 'worker_run_id'],
  ['transcription_entities_worker_run', 'transcription_entities', 'worker_run_id'],
  ['worker_runs_worker_version', 'worker_runs', 'worker_version_id'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, column] of INDEXES) {
    await db.schema.createIndex(name).on(table).column(column).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
