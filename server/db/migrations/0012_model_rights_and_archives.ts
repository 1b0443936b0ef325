// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import { sql, type Kysely } from 'kysely';

/**
 * Models become shareable and hold real archives: a model is public or not, archived or not,
 * and users are members of it (guest, contributor, admin) as of projects, in a table of its
 * own so project memberships keep their NOT NULL corpus. A version gets a description, a
 * parent, the size and hashes of its uploaded archive and an update date; a model lists the
 * workers it suits. Rows made before this migration keep state 'available' (the column's
 * default); new versions are inserted as 'created' explicitly, until their archive arrives.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('models')
    .addColumn('public', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('models')
    .addColumn('archived', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('models').addColumn('updated', 'text').execute();
  await sql`UPDATE models SET updated = created`.execute(db);
  await db.schema.createIndex('models_name').on('models').column('name').execute();

  await db.schema
    .createTable('model_memberships')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('model_id', 'text', (col) =>
      col.notNull().references('models.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('level', 'integer', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addUniqueConstraint('model_memberships_model_user', ['model_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('model_memberships_user')
    .on('model_memberships')
    .column('user_id')
    .execute();

  for (const [name, type] of [
    ['parent_id', 'text'],
    // Archives above 2 GiB do not fit a 32-bit integer.
    ['size', 'bigint'],
    ['archive_hash', 'text'],
    ['updated', 'text'],
  ] as const) {
    await db.schema.alterTable('model_versions').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('model_versions')
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE model_versions SET updated = created`.execute(db);
  await db.schema
    .createIndex('model_versions_model')
    .on('model_versions')
    .column('model_id')
    .execute();

  await db.schema
    .createTable('model_compatible_workers')
    .addColumn('model_id', 'text', (col) =>
      col.notNull().references('models.id').onDelete('cascade'),
    )
    .addColumn('worker_id', 'text', (col) =>
      col.notNull().references('workers.id').onDelete('cascade'),
    )
    .addColumn('created', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('model_compatible_workers_pk', ['model_id', 'worker_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_compatible_workers').execute();
  await db.schema.dropIndex('model_versions_model').execute();
  for (const name of ['description', 'updated', 'archive_hash', 'size', 'parent_id']) {
    await db.schema.alterTable('model_versions').dropColumn(name).execute();
  }
  await db.schema.dropTable('model_memberships').execute();
  await db.schema.dropIndex('models_name').execute();
  for (const name of ['updated', 'archived', 'public']) {
    await db.schema.alterTable('models').dropColumn(name).execute();
  }
}
