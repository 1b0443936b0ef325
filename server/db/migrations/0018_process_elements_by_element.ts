// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Deleting an element removes its rows in process_elements (ON DELETE CASCADE), found by
 * element_id. The primary key starts with process_id, so without this index each deleted
 * element read the whole table: a bulk deletion of the selection, after processes were made
 * from selections, read it once per element.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('process_elements_element')
    .on('process_elements')
    .column('element_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('process_elements_element').execute();
}
