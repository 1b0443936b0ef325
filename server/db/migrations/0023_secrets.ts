// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Workers' named secrets (enterprise edition). The value is only ever stored encrypted with
 * AES-256-GCM: `content` holds the ciphertext, `iv` the 12-byte nonce and `tag` the 16-byte
 * authentication tag, all base64 text so that both dialects keep them alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('secrets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('iv', 'text', (col) => col.notNull())
    .addColumn('tag', 'text', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('secrets').execute();
}
