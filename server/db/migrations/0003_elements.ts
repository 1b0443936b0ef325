// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('elements')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    // No cascade: a type still used by elements cannot be deleted.
    .addColumn('type_id', 'text', (col) => col.notNull().references('element_types.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('image_id', 'text', (col) => col.references('images.id'))
    // JSON [[x, y], …], closed ring, image coordinates; null without an image.
    .addColumn('polygon', 'text')
    .addColumn('rotation_angle', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('mirrored', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('confidence', 'double precision')
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('worker_run_id', 'text')
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    // Last time a child was added, removed, moved or renamed: the children list's Last-Modified.
    .addColumn('children_updated', 'text')
    .execute();
  await db.schema
    .createIndex('elements_corpus_name')
    .on('elements')
    .columns(['corpus_id', 'name'])
    .execute();
  await db.schema
    .createIndex('elements_corpus_type')
    .on('elements')
    .columns(['corpus_id', 'type_id'])
    .execute();
  await db.schema
    .createIndex('elements_corpus_created')
    .on('elements')
    .columns(['corpus_id', 'created'])
    .execute();
  await db.schema.createIndex('elements_image').on('elements').column('image_id').execute();
  await db.schema
    .createIndex('elements_worker_run')
    .on('elements')
    .column('worker_run_id')
    .execute();

  // An element may have several parents; position orders the children of one parent.
  await db.schema
    .createTable('element_links')
    .addColumn('parent_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('child_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('element_links_pk', ['parent_id', 'child_id'])
    .execute();
  await db.schema
    .createIndex('element_links_parent_position')
    .on('element_links')
    .columns(['parent_id', 'position'])
    .execute();
  await db.schema
    .createIndex('element_links_child')
    .on('element_links')
    .column('child_id')
    .execute();

  await db.schema
    .createTable('transcriptions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('element_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('orientation', 'text', (col) => col.notNull().defaultTo('horizontal-lr'))
    .addColumn('confidence', 'double precision')
    .addColumn('worker_run_id', 'text')
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('transcriptions_element')
    .on('transcriptions')
    .column('element_id')
    .execute();

  await db.schema
    .createTable('ml_classes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addUniqueConstraint('ml_classes_corpus_name', ['corpus_id', 'name'])
    .execute();

  await db.schema
    .createTable('classifications')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('element_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('ml_class_id', 'text', (col) =>
      col.notNull().references('ml_classes.id').onDelete('cascade'),
    )
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('confidence', 'double precision')
    .addColumn('high_confidence', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('worker_run_id', 'text')
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('moderator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('classifications_element')
    .on('classifications')
    .column('element_id')
    .execute();
  await db.schema
    .createIndex('classifications_class')
    .on('classifications')
    .column('ml_class_id')
    .execute();

  await db.schema
    .createTable('metadata')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('element_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    // Numeric metadata keep their number too, so comparisons are numeric in both databases.
    .addColumn('numeric_value', 'double precision')
    .addColumn('worker_run_id', 'text')
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('metadata_element').on('metadata').column('element_id').execute();
  await db.schema.createIndex('metadata_name').on('metadata').columns(['name', 'value']).execute();

  await db.schema
    .createTable('allowed_metadata')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addUniqueConstraint('allowed_metadata_corpus_type_name', ['corpus_id', 'type', 'name'])
    .execute();

  // Background jobs (imports, large deletions…): a queue in the database, so it survives restarts
  // and several server processes can share it.
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
    .addColumn('corpus_id', 'text', (col) => col.references('corpora.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('queued'))
    .addColumn('progress', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('stop_requested', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('claimed_by', 'text')
    .addColumn('enqueued_at', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text')
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema
    .createIndex('jobs_status_enqueued')
    .on('jobs')
    .columns(['status', 'enqueued_at'])
    .execute();
  await db.schema.createIndex('jobs_user').on('jobs').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'jobs',
    'allowed_metadata',
    'metadata',
    'classifications',
    'ml_classes',
    'transcriptions',
    'element_links',
    'elements',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
