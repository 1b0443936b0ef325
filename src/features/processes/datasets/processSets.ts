/**
 * The dataset sets a dataset process runs on (api part 2 §5 ListProcessSets, CreateProcessSet,
 * DestroyProcessSet): its fetchers, query key and query options. Chosen by the project's
 * admins before the start; the server refuses changes once the process has tasks.
 */
import { queryOptions } from '@tanstack/react-query';
import { api, type Page } from '@/api/client';
import type { Dataset } from '@/api/datasets';

/** One chosen set, with its dataset as GET /datasets/{id}/ shows it. */
export interface ProcessSet {
  id: string;
  dataset: Dataset;
  set_name: string;
}

export const processSetKeys = {
  all: ['process-sets'] as const,
  process: (processId: string) => [...processSetKeys.all, processId] as const,
};

/** Every chosen set, all pages read: a process runs on a handful of sets, not hundreds. */
export async function fetchProcessSets(processId: string): Promise<ProcessSet[]> {
  const sets: ProcessSet[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api<Page<ProcessSet>>(`/process/${processId}/sets/`, {
      query: { page, page_size: 100 },
    });
    sets.push(...answer.results);
    if (!answer.next) return sets;
  }
}

export function addProcessSet(processId: string, setId: string): Promise<ProcessSet> {
  return api<ProcessSet>(`/process/${processId}/set/${setId}/`, { method: 'POST' });
}

export async function removeProcessSet(processId: string, setId: string): Promise<void> {
  await api<null>(`/process/${processId}/set/${setId}/`, { method: 'DELETE' });
}

export const processSetsQuery = (processId: string) =>
  queryOptions({
    queryKey: processSetKeys.process(processId),
    queryFn: () => fetchProcessSets(processId),
  });
