// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/** Files uploaded into a project for an import (Arkindex's DataFile). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_files')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('corpus_id', 'text', (col) =>
      col.notNull().references('corpora.id').onDelete('cascade'),
    )
    // Who declared it: the only one (with site admins) who may upload its content.
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    // The name the file had on the uploader's machine.
    .addColumn('name', 'text', (col) => col.notNull())
    // Declared size in bytes; files above 2 GiB do not fit a 32-bit integer.
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    // MD5 of the content (hex), as S3 ETags and Arkindex give it; null until uploaded.
    .addColumn('hash', 'text')
    // unchecked (declared), checked (content stored and verified) or error.
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('unchecked'))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('data_files_corpus_created')
    .on('data_files')
    .columns(['corpus_id', 'created'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_files').execute();
}
