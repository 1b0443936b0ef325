// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A runner refreshes heartbeat_at while it works on a job; a started job whose heartbeat is
  // old belongs to a process that died, whichever machine it ran on.
  await db.schema.alterTable('jobs').addColumn('heartbeat_at', 'text').execute();
  // Claims so far, so a job that kills its process every time is not retried forever.
  await db.schema
    .alterTable('jobs')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('attempts').execute();
  await db.schema.alterTable('jobs').dropColumn('heartbeat_at').execute();
}
