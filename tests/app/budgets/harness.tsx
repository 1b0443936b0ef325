/**
 * The budgets screens as the app wires them (the real route files under the app's root), over a
 * small stand-in for the budgets API with the server's rules: site admins write, anyone logged
 * in reads; a process' budget is set by PUT /process/{id}/budget/.
 */
import { Route as rootRoute } from '@/routes/__root';
import { Route as budgetsRoute } from '@/routes/budget/index';
import { Route as budgetRoute } from '@/routes/budget/$budgetId';
import { Route as processBudgetRoute } from '@/routes/process/$id/budget';
import type { Budget, BudgetEntry, ProcessBudgetRef } from '@/api/budgets';
import type { User } from '@/api/types';
import {
  APP_STALE_TIME,
  apiError,
  idSequence,
  json,
  makeInfo,
  pageOf,
  renderRoutes,
  stubFetch,
  userWith,
  type Call,
} from '../support/harness';

export { isolateEachTest } from '../support/harness';

export const uuid = idSequence('b000');
export const admin: User = userWith(uuid(), { display_name: 'Grace Hopper', is_admin: true });
export const annotator: User = userWith(uuid(), { display_name: 'Ada Lovelace' });

const routeTree = rootRoute.addChildren(
  [
    [budgetsRoute, '/budget/'],
    [budgetRoute, '/budget/$budgetId'],
    [processBudgetRoute, '/process/$id/budget'],
  ].map(([route, path]) =>
    (route as typeof budgetsRoute).update({
      id: path,
      path,
      getParentRoute: () => rootRoute,
    } as never),
  ),
);

const cents = (value: string) => Math.round(Number(value) * 100);
const money = (value: number) => (value / 100).toFixed(2);

export function makeBudget(name: string, amount: string, spent = '0.00'): Budget {
  return {
    id: uuid(),
    name,
    amount,
    currency: 'EUR',
    spent,
    remaining: money(cents(amount) - cents(spent)),
    creator: null,
    created: '2026-11-01T10:00:00Z',
    updated: '2026-11-01T10:00:00Z',
  };
}

export function makeEntry(
  budget: Budget,
  process: ProcessBudgetRef,
  value: string,
  created: string,
) {
  return {
    id: uuid(),
    budget_id: budget.id,
    process: { id: process.id, name: process.name },
    task_id: uuid(),
    description: `Task ocr: 60 min 0 s at ${value} an hour`,
    value,
    created,
  } satisfies BudgetEntry;
}

export function makeProcess(name: string, budgetId: string | null = null): ProcessBudgetRef {
  return { id: uuid(), name, corpus: uuid(), budget_id: budgetId };
}

const ONLY_ADMINS = 'Only site administrators can do this.';
const NOT_FOUND = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);

/** The budgets API over the given rows, for a caller who is a site admin or not. */
export function fakeBudgetsServer(
  state: { budgets: Budget[]; entries?: BudgetEntry[]; processes?: ProcessBudgetRef[] },
  asAdmin = true,
) {
  const budgets = [...state.budgets];
  const entries = [...(state.entries ?? [])];
  const processes = [...(state.processes ?? [])];
  const withSpent = (budget: Budget): Budget => {
    const spent = entries
      .filter((entry) => entry.budget_id === budget.id)
      .reduce((sum, entry) => sum + cents(entry.value), cents(budget.spent));
    return { ...budget, spent: money(spent), remaining: money(cents(budget.amount) - spent) };
  };
  const answer = (call: Call): Response => {
    const writing = call.method !== 'GET';
    if (call.path === '/budgets/') {
      if (call.method === 'POST') {
        if (!asAdmin)
          return apiError(403, [{ attr: null, detail: ONLY_ADMINS, code: 'permission_denied' }]);
        const body = call.body as { name: string; amount: string; currency: string };
        if (body.currency === 'XYZ') {
          return apiError(400, [
            { attr: 'currency', detail: 'Enter an ISO 4217 currency code, such as EUR or USD.' },
          ]);
        }
        const budget = {
          ...makeBudget(body.name, Number(body.amount).toFixed(2)),
          currency: body.currency,
        };
        budgets.push(budget);
        return json(201, budget);
      }
      const page = Number(call.query.get('page') ?? '1');
      const size = Number(call.query.get('page_size') ?? '20');
      const sorted = [...budgets].sort((a, b) => a.name.localeCompare(b.name)).map(withSpent);
      return json(
        200,
        pageOf(sorted, page, size, (n) => `http://localhost/api/v1/budgets/?page=${n}`),
      );
    }
    const budgetMatch = /^\/budget\/([^/]+)\/(entries\/|summary\/)?$/.exec(call.path);
    if (budgetMatch) {
      const index = budgets.findIndex((budget) => budget.id === budgetMatch[1]);
      if (index < 0) return NOT_FOUND();
      const budget = budgets[index]!;
      const own = entries.filter((entry) => entry.budget_id === budget.id);
      if (budgetMatch[2] === 'entries/') {
        const sorted = [...own].sort((a, b) => b.created.localeCompare(a.created));
        return json(200, pageOf(sorted, Number(call.query.get('page') ?? '1'), 20, String));
      }
      if (budgetMatch[2] === 'summary/') {
        const group = (key: (entry: BudgetEntry) => string) => {
          const groups = new Map<string, BudgetEntry[]>();
          for (const entry of own)
            groups.set(key(entry), [...(groups.get(key(entry)) ?? []), entry]);
          return [...groups].map(([name, list]) => ({
            name,
            list,
            tasks: list.length,
            total: money(list.reduce((sum, entry) => sum + cents(entry.value), 0)),
          }));
        };
        return json(200, {
          processes: group((entry) => entry.process?.id ?? '').map(({ list, tasks, total }) => ({
            process: list[0]!.process,
            tasks,
            total,
          })),
          days: group((entry) => entry.created.slice(0, 10))
            .sort((a, b) => a.name.localeCompare(b.name))
            .map(({ name, tasks, total }) => ({ day: name, tasks, total })),
        });
      }
      if (writing && !asAdmin)
        return apiError(403, [{ attr: null, detail: ONLY_ADMINS, code: 'permission_denied' }]);
      if (call.method === 'DELETE') {
        budgets.splice(index, 1);
        return json(204, null);
      }
      if (call.method === 'PATCH') {
        const body = call.body as Partial<Budget>;
        budgets[index] = {
          ...budget,
          ...body,
          ...(body.amount && { amount: Number(body.amount).toFixed(2) }),
        };
      }
      return json(200, withSpent(budgets[index]!));
    }
    const processMatch = /^\/process\/([^/]+)\/(budget\/)?$/.exec(call.path);
    if (processMatch) {
      const process = processes.find((row) => row.id === processMatch[1]);
      if (!process) return NOT_FOUND();
      if (call.method === 'PUT' && processMatch[2]) {
        process.budget_id = (call.body as { budget_id: string | null }).budget_id;
      }
      return json(200, process);
    }
    return NOT_FOUND();
  };
  return { ...stubFetch(answer), budgets, processes };
}

export function renderBudgets(
  url: string,
  { user = admin, enterprise = true }: { user?: User; enterprise?: boolean } = {},
) {
  return renderRoutes(routeTree as never, {
    url,
    info: makeInfo({ enterprise }),
    user,
    staleTime: APP_STALE_TIME,
  });
}
