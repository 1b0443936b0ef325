// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * User groups (enterprise edition). A group has members (level 10 member, 100 admin) and may
 * itself be a member of projects (`corpus_groups`, levels as for `memberships`), its members
 * then holding that level there. Project grants live in their own table rather than in
 * `memberships`, so that every membership row keeps its user and the existing routes' shapes.
 * Deleting a group deletes its members and its project grants.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('group_members')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('group_id', 'text', (col) =>
      col.notNull().references('groups.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('level', 'integer', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addUniqueConstraint('group_members_group_user', ['group_id', 'user_id'])
    .execute();
  // Rights start from the caller: "which groups is this user in".
  await db.schema
    .createIndex('group_members_user_id')
    .on('group_members')
    .columns(['user_id', 'group_id'])
    .execute();

  await db.schema
    .createTable('corpus_groups')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    .addColumn('group_id', 'text', (col) =>
      col.notNull().references('groups.id').onDelete('cascade'),
    )
    .addColumn('level', 'integer', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addUniqueConstraint('corpus_groups_corpus_group', ['corpus_id', 'group_id'])
    .execute();
  await db.schema
    .createIndex('corpus_groups_group_id')
    .on('corpus_groups')
    .columns(['group_id', 'corpus_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['corpus_groups', 'group_members', 'groups']) {
    await db.schema.dropTable(table).execute();
  }
}
