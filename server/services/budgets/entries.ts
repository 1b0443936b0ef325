/**
 * A budget's entries: the list (newest first, filtered by process) and the summary its page
 * draws, with totals per process and per day (the UTC day an entry's task finished).
 */
import { sql } from 'kysely';
import type { Db } from '../../db';
import { countRows, type PageSource } from '../../pagination';
import { formatMoney } from './money';

export interface BudgetEntryJson {
  id: string;
  budget_id: string;
  process: { id: string; name: string | null } | null;
  task_id: string;
  description: string;
  value: string;
  created: string;
}

export function entryPages(
  db: Db,
  budgetId: string,
  processId: string | undefined,
): PageSource<BudgetEntryJson> {
  const base = () => {
    let query = db.selectFrom('budget_entries').where('budget_entries.budget_id', '=', budgetId);
    if (processId) query = query.where('budget_entries.process_id', '=', processId);
    return query;
  };
  return {
    count: () => countRows(base().select('budget_entries.id')),
    async fetch({ limit, offset }) {
      const rows = await base()
        .leftJoin('processes', 'processes.id', 'budget_entries.process_id')
        .selectAll('budget_entries')
        .select('processes.name as process_name')
        .orderBy('budget_entries.created', 'desc')
        .orderBy('budget_entries.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        budget_id: row.budget_id,
        process: row.process_id ? { id: row.process_id, name: row.process_name } : null,
        task_id: row.task_id,
        description: row.description,
        value: formatMoney(row.value),
        created: row.created,
      }));
    },
  };
}

export interface BudgetSummaryJson {
  processes: {
    process: { id: string; name: string | null } | null;
    tasks: number;
    total: string;
  }[];
  days: { day: string; tasks: number; total: string }[];
}

/** Totals per process (largest first; deleted processes together) and per day (in order). */
export async function budgetSummary(db: Db, budgetId: string): Promise<BudgetSummaryJson> {
  const day = sql<string>`substr(budget_entries.created, 1, 10)`;
  const [processes, days] = await Promise.all([
    db
      .selectFrom('budget_entries')
      .leftJoin('processes', 'processes.id', 'budget_entries.process_id')
      .select((eb) => [
        'budget_entries.process_id',
        eb.fn.max('processes.name').as('name'),
        eb.fn.countAll().as('tasks'),
        eb.fn.sum('budget_entries.value').as('total'),
      ])
      .where('budget_entries.budget_id', '=', budgetId)
      .groupBy('budget_entries.process_id')
      .execute(),
    db
      .selectFrom('budget_entries')
      .select((eb) => [
        day.as('day'),
        eb.fn.countAll().as('tasks'),
        eb.fn.sum('budget_entries.value').as('total'),
      ])
      .where('budget_entries.budget_id', '=', budgetId)
      .groupBy(day)
      .orderBy(day)
      .execute(),
  ]);
  return {
    processes: processes
      .map((row) => ({
        process: row.process_id ? { id: row.process_id, name: row.name ?? null } : null,
        tasks: Number(row.tasks),
        cents: Number(row.total ?? 0),
      }))
      .sort((a, b) => b.cents - a.cents || (a.process?.id ?? '').localeCompare(b.process?.id ?? ''))
      .map(({ cents, ...rest }) => ({ ...rest, total: formatMoney(cents) })),
    days: days.map((row) => ({
      day: row.day,
      tasks: Number(row.tasks),
      total: formatMoney(Number(row.total ?? 0)),
    })),
  };
}
