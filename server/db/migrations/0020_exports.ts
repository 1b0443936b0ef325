// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Project exports (spec 001 §3 Export, api part 2 §1): one row per SQLite export of a project,
 * its state (created → running → done | failed), who started it and the job that builds it.
 * The file lives under $FOLIA_DATA_DIR/exports/, named by the row's id; `size` is its length
 * once done. Deleting the project or the user who started an export takes its rows with it
 * (the files are swept by the server).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('corpus_exports')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('created'))
    .addColumn('source', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('job_id', 'text')
    .addColumn('error', 'text')
    .addColumn('size', 'bigint')
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();
  // A project's exports newest first (the list), and its latest created, running or done one
  // (the rules of a new export).
  await db.schema
    .createIndex('corpus_exports_corpus_created')
    .on('corpus_exports')
    .columns(['corpus_id', 'created'])
    .execute();
  // The sweep of done exports older than two weeks.
  await db.schema
    .createIndex('corpus_exports_state_created')
    .on('corpus_exports')
    .columns(['state', 'created'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('corpus_exports').execute();
}
