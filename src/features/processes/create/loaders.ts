import type { QueryClient } from '@tanstack/react-query';
import { processToConfigureQuery } from '@/api/processConfiguration';
import type { Process } from '@/api/processTypes';

/** Filters and worker runs change only before the start (spec 000 §4): after, the details. */
export function isConfigurable(process: Pick<Process, 'mode' | 'tasks'>): boolean {
  return process.mode === 'workers' && process.tasks.length === 0;
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
