// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Datasets of a project (spec 001 §3, api part 2 §5): a dataset has named sets, and an element
 * sits in a set at most once. `seed`, `task_id` and `populate_job_id` stay null until a dataset
 * is populated or built. Deleting a project, dataset, set or element takes its rows with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('datasets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('unique_elements', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('open'))
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('seed', 'bigint')
    .addColumn('task_id', 'text')
    .addColumn('populate_job_id', 'text')
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .addUniqueConstraint('datasets_corpus_name', ['corpus_id', 'name'])
    .execute();

  await db.schema
    .createTable('dataset_sets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('dataset_id', 'text', (col) =>
      col.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addUniqueConstraint('dataset_sets_dataset_name', ['dataset_id', 'name'])
    .execute();

  await db.schema
    .createTable('dataset_elements')
    .addColumn('set_id', 'text', (col) =>
      col.notNull().references('dataset_sets.id').onDelete('cascade'),
    )
    .addColumn('element_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('created', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('dataset_elements_pk', ['set_id', 'element_id'])
    .execute();
  // An element's sets (GET /element/{id}/sets/, the unique_elements check, element deletion).
  await db.schema
    .createIndex('dataset_elements_element')
    .on('dataset_elements')
    .column('element_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dataset_elements').execute();
  await db.schema.dropTable('dataset_sets').execute();
  await db.schema.dropTable('datasets').execute();
}
