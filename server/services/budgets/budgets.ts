/**
 * Budgets (enterprise edition): site admins create, edit and delete them. Every logged-in user
 * may list and read them, amounts included: whoever attaches a process to a budget has to
 * choose one and see what is left, and in an institution's installation a budget is not a
 * secret from its own staff. Charging and refusal live in charges.ts.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db';
import { notFound, validationErrors, type ErrorItem } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import { requireUuid } from '../../permissions';
import { nowIso } from '../../clock';
import { CURRENCY_INVALID, formatMoney, parseCurrency, parseMoney } from './money';

export interface BudgetJson {
  id: string;
  name: string;
  amount: string;
  currency: string;
  spent: string;
  remaining: string;
  creator: { id: string; display_name: string } | null;
  created: string;
  updated: string;
}

export const BUDGET_NAME_MAX = 250;

/** Budgets exist in the enterprise edition only: elsewhere their routes are unknown. */
export function requireBudgets(app: FastifyInstance): void {
  if (!app.config.features.enterprise) throw notFound();
}

/** Budgets with what their entries add up to and their creator's name. */
function listedBudgets(db: Db) {
  return db
    .selectFrom('budgets')
    .leftJoin('users', 'users.id', 'budgets.creator_id')
    .selectAll('budgets')
    .select((eb) => [
      'users.display_name as creator_name',
      eb
        .selectFrom('budget_entries')
        .select(sql<number | string>`coalesce(sum(budget_entries.value), 0)`.as('total'))
        .whereRef('budget_entries.budget_id', '=', 'budgets.id')
        .as('spent'),
    ]);
}

type ListedBudget = Awaited<
  ReturnType<ReturnType<typeof listedBudgets>['executeTakeFirstOrThrow']>
>;

function budgetJson(row: ListedBudget): BudgetJson {
  const amount = Number(row.amount);
  const spent = Number(row.spent ?? 0);
  return {
    id: row.id,
    name: row.name,
    amount: formatMoney(amount),
    currency: row.currency,
    spent: formatMoney(spent),
    remaining: formatMoney(amount - spent),
    creator:
      row.creator_id && row.creator_name !== null
        ? { id: row.creator_id, display_name: row.creator_name }
        : null,
    created: row.created,
    updated: row.updated,
  };
}

/** Every budget, by name. */
export function budgetPages(db: Db): PageSource<BudgetJson> {
  return {
    count: () => countRows(db.selectFrom('budgets').select('id')),
    async fetch({ limit, offset }) {
      const rows = await listedBudgets(db)
        .orderBy('budgets.name')
        .orderBy('budgets.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(budgetJson);
    },
  };
}

/** The budget a path names, or 404 (a non-UUID id names nothing). */
export async function requireBudget(db: Db, rawId: string): Promise<BudgetJson> {
  const id = requireUuid(rawId);
  const row = await listedBudgets(db).where('budgets.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return budgetJson(row);
}

export interface BudgetInput {
  name?: string | undefined;
  amount?: unknown;
  currency?: string | undefined;
}

/** The columns a valid input sets; every bad field is named at once. */
function checkInput(input: BudgetInput, creating: boolean) {
  const problems: ErrorItem[] = [];
  const required = (attr: string) =>
    problems.push({ code: 'required', detail: 'This field is required.', attr });
  const values: { name?: string; amount?: number; currency?: string } = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name)
      problems.push({ code: 'blank', detail: 'This field may not be blank.', attr: 'name' });
    else if (name.length > BUDGET_NAME_MAX) {
      problems.push({
        code: 'max_length',
        detail: `Ensure this field has no more than ${BUDGET_NAME_MAX} characters.`,
        attr: 'name',
      });
    } else values.name = name;
  } else if (creating) required('name');
  if (input.amount !== undefined) {
    const amount = parseMoney(input.amount, 'amount');
    if (typeof amount === 'number') values.amount = amount;
    else problems.push(amount);
  } else if (creating) required('amount');
  if (input.currency !== undefined) {
    const currency = parseCurrency(input.currency);
    if (currency) values.currency = currency;
    else problems.push({ code: 'invalid', detail: CURRENCY_INVALID, attr: 'currency' });
  } else if (creating) required('currency');
  if (problems.length) throw validationErrors(problems);
  return values;
}

export async function createBudget(
  db: Db,
  creatorId: string,
  input: BudgetInput,
): Promise<BudgetJson> {
  const values = checkInput(input, true);
  const now = nowIso();
  const id = randomUUID();
  await db
    .insertInto('budgets')
    .values({
      id,
      name: values.name!,
      amount: values.amount!,
      currency: values.currency!,
      creator_id: creatorId,
      created: now,
      updated: now,
    })
    .execute();
  return requireBudget(db, id);
}

export async function updateBudget(db: Db, rawId: string, input: BudgetInput): Promise<BudgetJson> {
  const budget = await requireBudget(db, rawId);
  const values = checkInput(input, false);
  await db
    .updateTable('budgets')
    .set({ ...values, updated: nowIso() })
    .where('id', '=', budget.id)
    .execute();
  return requireBudget(db, budget.id);
}

/** Its entries go with it; its processes are left without a budget. */
export async function deleteBudget(db: Db, rawId: string): Promise<void> {
  const budget = await requireBudget(db, rawId);
  await db.deleteFrom('budgets').where('id', '=', budget.id).execute();
}
