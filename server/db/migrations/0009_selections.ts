// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Each user's selection of elements (api/arkindex-api.md §3.5: a per-user list kept on the
 * server). A deleted element or user leaves it through the cascades. No corpus column: a
 * project's part of a selection is found through the element's own row (the primary key of
 * elements), which a selection capped in size keeps cheap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('selections')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('element_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('created', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('selections_pk', ['user_id', 'element_id'])
    .execute();
  // The primary key starts with the user: deleting elements needs its own index to find their
  // rows, or every cascade scans the table.
  await db.schema.createIndex('selections_element').on('selections').column('element_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('selections').execute();
}
