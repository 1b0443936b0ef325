import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { processToConfigureQuery } from '@/api/processConfiguration';

/**
 * The datasets step's loader: it is a dataset process' first step before its start. A started
 * process opens its details, a workers process its filter step. A failed read is left to the
 * page, which says why.
 */
export async function redirectUnlessChoosingSets(
  queryClient: QueryClient,
  id: string,
): Promise<void> {
  let process;
  try {
    process = await queryClient.fetchQuery(processToConfigureQuery(id));
  } catch {
    return;
  }
  if (process.mode === 'workers' && process.tasks.length === 0) {
    throw redirect({ to: '/process/$id/filter', params: { id }, replace: true });
  }
  if (process.mode !== 'dataset' || process.tasks.length > 0) {
    throw redirect({ to: '/process/$id/{-$selectedRun}', params: { id }, replace: true });
  }
}
