// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * What an imported IIIF manifest said beyond its canvases, kept for the folder it became so the
 * folder's own manifest can say it again: its ranges (`structures`), by then pointing at the
 * pages made of its canvases, and its licence, attribution and logos. Both are JSON text.
 * Deleting the folder takes its row with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('imported_manifests')
    .addColumn('element_id', 'text', (col) =>
      col.primaryKey().references('elements.id').onDelete('cascade'),
    )
    .addColumn('source_id', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('structures', 'text', (col) => col.notNull())
    .addColumn('rights', 'text', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('imported_manifests').execute();
}
