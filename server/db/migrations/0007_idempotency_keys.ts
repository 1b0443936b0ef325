// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Responses to requests sent with an Idempotency-Key, kept a day, so an edit replayed by the
 * offline outbox after a lost response is answered again instead of applied twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (col) => col.notNull())
    // Method, path and body digest: the same key for another request is refused.
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    // Null while the first request is being processed.
    .addColumn('status_code', 'integer')
    .addColumn('content_type', 'text')
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
