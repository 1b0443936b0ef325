// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Who or what produced a result: workers, their versions and configurations, models and their
 * versions, and the processes that ran them, joined in worker runs (the `worker_run` results
 * carry). Also entity types and the entities found in transcriptions (offset and length in the
 * text, as Arkindex 1.9 stores them: a type, no separate entity object).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('repository_url', 'text')
    .addColumn('archived', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('worker_versions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('worker_id', 'text', (col) =>
      col.notNull().references('workers.id').onDelete('cascade'),
    )
    // A git revision, or a version number for workers published without one.
    .addColumn('revision_hash', 'text')
    .addColumn('version', 'integer')
    .addColumn('configuration', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('available'))
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('worker_configurations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('worker_id', 'text', (col) =>
      col.notNull().references('workers.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('configuration', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('archived', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('models')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('model_versions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('model_id', 'text', (col) =>
      col.notNull().references('models.id').onDelete('cascade'),
    )
    .addColumn('tag', 'text')
    .addColumn('hash', 'text')
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('available'))
    .addColumn('configuration', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('processes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('name', 'text')
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('unscheduled'))
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('started', 'text')
    .addColumn('finished', 'text')
    .execute();
  await db.schema.createIndex('processes_corpus').on('processes').column('corpus_id').execute();
  await db.schema
    .createTable('worker_runs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('process_id', 'text', (col) =>
      col.notNull().references('processes.id').onDelete('cascade'),
    )
    .addColumn('worker_version_id', 'text', (col) =>
      col.notNull().references('worker_versions.id').onDelete('cascade'),
    )
    .addColumn('model_version_id', 'text', (col) =>
      col.references('model_versions.id').onDelete('set null'),
    )
    .addColumn('configuration_id', 'text', (col) =>
      col.references('worker_configurations.id').onDelete('set null'),
    )
    // The worker runs this one follows in its process, as a JSON array of ids.
    .addColumn('parents', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('worker_runs_process')
    .on('worker_runs')
    .column('process_id')
    .execute();
  await db.schema
    .createTable('entity_types')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('color', 'text', (col) => col.notNull().defaultTo('ff0000'))
    .addUniqueConstraint('entity_types_corpus_name', ['corpus_id', 'name'])
    .execute();
  await db.schema
    .createTable('transcription_entities')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('transcription_id', 'text', (col) =>
      col.notNull().references('transcriptions.id').onDelete('cascade'),
    )
    .addColumn('type_id', 'text', (col) =>
      col.notNull().references('entity_types.id').onDelete('cascade'),
    )
    .addColumn('offset', 'integer', (col) => col.notNull())
    .addColumn('length', 'integer', (col) => col.notNull())
    .addColumn('confidence', 'double precision')
    .addColumn('worker_run_id', 'text', (col) =>
      col.references('worker_runs.id').onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('transcription_entities_transcription')
    .on('transcription_entities')
    .column('transcription_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'transcription_entities',
    'entity_types',
    'worker_runs',
    'processes',
    'model_versions',
    'models',
    'worker_configurations',
    'worker_versions',
    'workers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
