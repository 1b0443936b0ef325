// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import type { Kysely } from 'kysely';

/**
 * Budgets (enterprise edition): a sum of money processes are charged against as their tasks
 * finish. Money is kept exactly, as integer hundredths of the currency's unit (bigint), never
 * as a float: `amount` and an entry's `value` in hundredths, a farm's `rate` in hundredths per
 * hour of task time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('budgets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull())
    // ISO 4217 code, e.g. EUR.
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('budget_entries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('budget_id', 'text', (col) =>
      col.notNull().references('budgets.id').onDelete('cascade'),
    )
    // An entry outlives its process: the money was spent all the same.
    .addColumn('process_id', 'text', (col) => col.references('processes.id').onDelete('set null'))
    // No foreign key: the task goes with its process, the entry stays. Unique: charged once.
    .addColumn('task_id', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('value', 'bigint', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('budget_entries_budget_created')
    .on('budget_entries')
    .columns(['budget_id', 'created'])
    .execute();
  await db.schema
    .createIndex('budget_entries_process')
    .on('budget_entries')
    .column('process_id')
    .execute();

  await db.schema
    .alterTable('processes')
    .addColumn('budget_id', 'text', (col) => col.references('budgets.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('farms')
    .addColumn('rate', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('farms').dropColumn('rate').execute();
  await db.schema.alterTable('processes').dropColumn('budget_id').execute();
  await db.schema.dropTable('budget_entries').execute();
  await db.schema.dropTable('budgets').execute();
}
