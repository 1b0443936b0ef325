/**
 * Budgets (enterprise edition): the fetchers, the one query-key factory and the query options
 * of the budgets list, a budget, its entries and summary, and a process' budget. Amounts are
 * decimal strings as the server answers them ("100.00"), never floats.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type Page } from './client';

export interface Budget {
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

export interface BudgetEntry {
  id: string;
  budget_id: string;
  process: { id: string; name: string | null } | null;
  task_id: string;
  description: string;
  value: string;
  created: string;
}

export interface BudgetSummary {
  processes: {
    process: { id: string; name: string | null } | null;
    tasks: number;
    total: string;
  }[];
  days: { day: string; tasks: number; total: string }[];
}

export interface BudgetInput {
  name: string;
  amount: string;
  currency: string;
}

/** What the process-budget screen reads of a process (RetrieveProcess). */
export interface ProcessBudgetRef {
  id: string;
  name: string | null;
  corpus: string | null;
  budget_id: string | null;
}

export const BUDGETS_PAGE_SIZE = 20;
export const BUDGET_ENTRIES_PAGE_SIZE = 20;
/** As the server checks them (server/services/budgets/budgets.ts). */
export const BUDGET_NAME_MAX_LENGTH = 250;

export const budgetKeys = {
  all: ['budgets'] as const,
  lists: () => [...budgetKeys.all, 'list'] as const,
  list: (page: number) => [...budgetKeys.lists(), page] as const,
  detail: (id: string) => [...budgetKeys.all, 'detail', id] as const,
  entries: (id: string, page: number) => [...budgetKeys.detail(id), 'entries', page] as const,
  summary: (id: string) => [...budgetKeys.detail(id), 'summary'] as const,
  process: (processId: string) => [...budgetKeys.all, 'process', processId] as const,
};

export function budgetListQuery(page: number, pageSize = BUDGETS_PAGE_SIZE) {
  return queryOptions({
    queryKey: [...budgetKeys.list(page), pageSize],
    queryFn: ({ signal }) =>
      api<Page<Budget>>('/budgets/', { query: { page, page_size: pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function budgetQuery(id: string) {
  return queryOptions({
    queryKey: budgetKeys.detail(id),
    queryFn: ({ signal }) => api<Budget>(`/budget/${id}/`, { signal }),
  });
}

export function budgetEntriesQuery(id: string, page: number) {
  return queryOptions({
    queryKey: budgetKeys.entries(id, page),
    queryFn: ({ signal }) =>
      api<Page<BudgetEntry>>(`/budget/${id}/entries/`, {
        query: { page, page_size: BUDGET_ENTRIES_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function budgetSummaryQuery(id: string) {
  return queryOptions({
    queryKey: budgetKeys.summary(id),
    queryFn: ({ signal }) => api<BudgetSummary>(`/budget/${id}/summary/`, { signal }),
  });
}

export function processBudgetQuery(processId: string) {
  return queryOptions({
    queryKey: budgetKeys.process(processId),
    queryFn: ({ signal }) => api<ProcessBudgetRef>(`/process/${processId}/`, { signal }),
  });
}

export function createBudget(input: BudgetInput): Promise<Budget> {
  return api<Budget>('/budgets/', { method: 'POST', body: input });
}

export function updateBudget(id: string, input: Partial<BudgetInput>): Promise<Budget> {
  return api<Budget>(`/budget/${id}/`, { method: 'PATCH', body: input });
}

export function deleteBudget(id: string): Promise<void> {
  return api<void>(`/budget/${id}/`, { method: 'DELETE' });
}

export function setProcessBudget(processId: string, budgetId: string | null) {
  return api<ProcessBudgetRef>(`/process/${processId}/budget/`, {
    method: 'PUT',
    body: { budget_id: budgetId },
  });
}
