/** The budgets screens' writes: each refreshes what it changes (budgets, a process' budget). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  budgetKeys,
  createBudget,
  deleteBudget,
  setProcessBudget,
  updateBudget,
  type BudgetInput,
} from '@/api/budgets';
import { processKeys } from '@/api/processes';

export function useCreateBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.lists() }),
  });
}

export function useUpdateBudget(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<BudgetInput>) => updateBudget(id, input),
    onSuccess: (budget) => {
      queryClient.setQueryData(budgetKeys.detail(id), budget);
      return queryClient.invalidateQueries({ queryKey: budgetKeys.lists() });
    },
  });
}

export function useDeleteBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBudget,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: budgetKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: budgetKeys.lists() });
    },
  });
}

export function useSetProcessBudget(processId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (budgetId: string | null) => setProcessBudget(processId, budgetId),
    onSuccess: (process) => {
      queryClient.setQueryData(budgetKeys.process(processId), process);
      return queryClient.invalidateQueries({ queryKey: processKeys.detail(processId) });
    },
  });
}
