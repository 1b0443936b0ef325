/**
 * Attaching a process to a budget (or detaching it): the process' admins choose among all
 * budgets. A change applies to the tasks that finish afterwards; entries already made stay
 * with the budget they were charged to.
 */
import type { Db } from '../../db';
import { invalidPk } from '../../errors';
import { nowIso } from '../../clock';
import type { ProcessRow } from '../processes/rights';

export async function setProcessBudget(
  db: Db,
  process: ProcessRow,
  budgetId: string | null,
): Promise<void> {
  if (budgetId) {
    const budget = await db
      .selectFrom('budgets')
      .select('id')
      .where('id', '=', budgetId.toLowerCase())
      .executeTakeFirst();
    if (!budget) throw invalidPk('budget_id', budgetId);
  }
  await db
    .updateTable('processes')
    .set({ budget_id: budgetId?.toLowerCase() ?? null, updated: nowIso() })
    .where('id', '=', process.id)
    .execute();
}
