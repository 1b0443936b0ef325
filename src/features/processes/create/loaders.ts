import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { processToConfigureQuery } from '@/api/processConfiguration';
import type { Process } from '@/api/processTypes';

/**
 * Filters (or dataset sets) and worker runs change only before the start (spec 000 §4): after,
 * the details.
 */
export function isConfigurable(process: Pick<Process, 'mode' | 'tasks'>): boolean {
  return (process.mode === 'workers' || process.mode === 'dataset') && process.tasks.length === 0;
}

/**
 * Whether the filter and configure steps apply: a process that has started (or is not a
 * workers process) opens its details instead. A failed read is left to the page, which says
 * why.
 */
export async function stillConfigurable(queryClient: QueryClient, id: string): Promise<boolean> {
  try {
    return isConfigurable(await queryClient.fetchQuery(processToConfigureQuery(id)));
  } catch {
    return true;
  }
}

/** The filter and configure routes' loader: a process past these steps opens its details. */
export async function redirectUnlessConfigurable(
  queryClient: QueryClient,
  id: string,
): Promise<void> {
  if (!(await stillConfigurable(queryClient, id))) {
    throw redirect({ to: '/process/$id/{-$selectedRun}', params: { id }, replace: true });
  }
}
