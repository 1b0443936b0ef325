// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * The dataset sets a dataset process runs on (api part 2 §5 ListProcessSets): a set is chosen
 * once per process. Deleting the process takes its choices with it; a set chosen by a process
 * is refused deletion by the app, but a deleted dataset takes its sets' choices along.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('process_sets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('process_id', 'text', (col) =>
      col.notNull().references('processes.id').onDelete('cascade'),
    )
    .addColumn('set_id', 'text', (col) =>
      col.notNull().references('dataset_sets.id').onDelete('cascade'),
    )
    .addColumn('created', 'text', (col) => col.notNull())
    .addUniqueConstraint('process_sets_process_set', ['process_id', 'set_id'])
    .execute();
  // Whether a set is chosen by any process (deleting a set asks it).
  await db.schema.createIndex('process_sets_set').on('process_sets').column('set_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('process_sets').execute();
}
