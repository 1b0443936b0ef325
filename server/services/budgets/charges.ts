/**
 * What a process' budget is charged, and when it refuses more work. A finished task that ran
 * adds one entry, in the transaction that finishes it: its time (finished − started) in hours
 * × the hourly rate of the farm its agent belongs to. A task that never started costs nothing;
 * the unique task_id charges a task once however often its end is recorded (a restart makes a
 * new task, charged on its own, as it ran again).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db';
import { validationError } from '../../errors';
import { formatMoney } from './money';

const HOUR_MS = 3_600_000;

/** Minutes and whole seconds, or tenths of a second under a minute, for a description. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** Adds the entry of a task that has just finished, when its process has a budget. */
export async function chargeFinishedTask(trx: Db, taskId: string): Promise<void> {
  const row = await trx
    .selectFrom('tasks')
    .innerJoin('processes', 'processes.id', 'tasks.process_id')
    .leftJoin('agents', 'agents.id', 'tasks.agent_id')
    // The agent's farm ran the task; the process' farm stands in once the agent is gone.
    .leftJoin('farms', (join) =>
      join.on((eb) => eb('farms.id', '=', eb.fn.coalesce('agents.farm_id', 'processes.farm_id'))),
    )
    .select([
      'tasks.id',
      'tasks.slug',
      'tasks.process_id',
      'tasks.started',
      'tasks.finished',
      'processes.budget_id',
      'farms.name as farm_name',
      'farms.rate',
    ])
    .where('tasks.id', '=', taskId)
    .executeTakeFirst();
  if (!row?.budget_id || !row.started || !row.finished) return;
  const ms = Math.max(0, Date.parse(row.finished) - Date.parse(row.started));
  const rate = Number(row.rate ?? 0);
  const value = Math.round((ms / HOUR_MS) * rate);
  await trx
    .insertInto('budget_entries')
    .values({
      id: randomUUID(),
      budget_id: row.budget_id,
      process_id: row.process_id,
      task_id: row.id,
      description: `Task ${row.slug}: ${duration(ms)} at ${formatMoney(rate)} an hour${
        row.farm_name ? ` on ${row.farm_name}` : ''
      }`,
      value,
      created: row.finished,
    })
    .onConflict((oc) => oc.column('task_id').doNothing())
    .execute();
}

/** "The budget “X” is spent: 100.00 EUR of 100.00 EUR." */
export function spentMessage(name: string, spent: string, amount: string, currency: string) {
  return `The budget “${name}” is spent: ${spent} ${currency} of ${amount} ${currency}.`;
}

/**
 * A start or retry of a process whose budget's entries reach its amount is refused. Called in
 * the transaction that makes the tasks, after the process' row is locked.
 */
export async function refuseSpentBudget(trx: Db, processId: string): Promise<void> {
  const budget = await trx
    .selectFrom('processes')
    .innerJoin('budgets', 'budgets.id', 'processes.budget_id')
    .select((eb) => [
      'budgets.name',
      'budgets.amount',
      'budgets.currency',
      eb
        .selectFrom('budget_entries')
        .select(sql<number | string>`coalesce(sum(budget_entries.value), 0)`.as('total'))
        .whereRef('budget_entries.budget_id', '=', 'budgets.id')
        .as('spent'),
    ])
    .where('processes.id', '=', processId)
    .executeTakeFirst();
  if (!budget) return;
  const spent = Number(budget.spent ?? 0);
  const amount = Number(budget.amount);
  if (spent < amount) return;
  throw validationError(
    null,
    spentMessage(budget.name, formatMoney(spent), formatMoney(amount), budget.currency),
    'budget_spent',
  );
}
