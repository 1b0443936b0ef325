// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import { sql, type Kysely } from 'kysely';

/**
 * What element lists need on a large project (measured by bench/elements.bench.ts on a million
 * elements).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether the element has no parent, kept by the code that writes element_links. Listing a
  // project's top-level elements (the navigation page's default) is then an index range instead
  // of a parent lookup for each of the project's elements.
  await db.schema
    .alterTable('elements')
    .addColumn('top_level', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await sql`UPDATE elements SET top_level = 0 WHERE EXISTS (
    SELECT 1 FROM element_links WHERE element_links.child_id = elements.id)`.execute(db);
  await db.schema
    .createIndex('elements_corpus_top_level_name')
    .on('elements')
    .columns(['corpus_id', 'top_level', 'name'])
    .execute();

  // Type filters are listed by name: with the name in the index, no sort of every match.
  await db.schema
    .createIndex('elements_corpus_type_name')
    .on('elements')
    .columns(['corpus_id', 'type_id', 'name'])
    .execute();
  await db.schema.dropIndex('elements_corpus_type').execute();

  // Children by position with their ids in the index: recursive walks read only the index, and
  // PostgreSQL then walks a subtree by index lookups instead of hashing every link each level.
  await db.schema
    .createIndex('element_links_parent_position_child')
    .on('element_links')
    .columns(['parent_id', 'position', 'child_id'])
    .execute();
  await db.schema.dropIndex('element_links_parent_position').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('element_links_parent_position')
    .on('element_links')
    .columns(['parent_id', 'position'])
    .execute();
  await db.schema.dropIndex('element_links_parent_position_child').execute();
  await db.schema
    .createIndex('elements_corpus_type')
    .on('elements')
    .columns(['corpus_id', 'type_id'])
    .execute();
  await db.schema.dropIndex('elements_corpus_type_name').execute();
  await db.schema.dropIndex('elements_corpus_top_level_name').execute();
  await db.schema.alterTable('elements').dropColumn('top_level').execute();
}
