// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('is_admin', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('verified_email', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('can_manage_workers', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('can_ingest', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('auth_token', 'text', (col) => col.notNull().unique())
    .addColumn('last_login', 'text')
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('expires', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_key_at')
    .on('login_failures')
    .columns(['key', 'at'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('corpora')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('public', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('indexable', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('top_level_type', 'text')
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('element_types')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('folder', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('color', 'text', (col) => col.notNull())
    .addColumn('indexable', 'integer', (col) => col.notNull().defaultTo(1))
    .addUniqueConstraint('element_types_corpus_slug', ['corpus_id', 'slug'])
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('level', 'integer', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addUniqueConstraint('memberships_corpus_user', ['corpus_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user_id').on('memberships').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'memberships',
    'element_types',
    'corpora',
    'settings',
    'login_failures',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
