// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('images')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // The project the image came in through; it decides who may see it (null: public).
    .addColumn('corpus_id', 'text', (col) => col.references('corpora.id').onDelete('cascade'))
    // Local images: the pyramidal TIFF, relative to <dataDir>/images.
    .addColumn('path', 'text')
    // Images on an external IIIF server: their IIIF base URL.
    .addColumn('url', 'text')
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('height', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('unchecked'))
    .addColumn('mime', 'text')
    .addColumn('hash', 'text')
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('images_corpus_id').on('images').column('corpus_id').execute();
  await db.schema.createIndex('images_hash').on('images').column('hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('images').execute();
}
