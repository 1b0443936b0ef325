import type { WorkerListQuery } from '@/api/workers';
import { isUuid } from '@/lib/workerConfiguration';

/** The workers list's address: `?page=2&name=…&type=…`. */
export interface WorkerListSearch {
  page?: number;
  name?: string;
  type?: string;
}

/** Anything the address holds that is not one of these falls back to the default. */
export function validateWorkerListSearch(raw: Record<string, unknown>): WorkerListSearch {
  const page = Number(raw.page);
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  const type = typeof raw.type === 'string' ? raw.type.trim() : '';
  return {
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    ...(name ? { name } : {}),
    ...(type ? { type } : {}),
  };
}

export function workerListQueryOf(search: WorkerListSearch): WorkerListQuery {
  return { page: search.page ?? 1, name: search.name ?? '', type: search.type ?? '' };
}

export function workerListSearchOf(query: WorkerListQuery): WorkerListSearch {
  return validateWorkerListSearch({ ...query });
}

/** A worker's page address: `?configuration=<id>` shows that configuration, `corpus` its types. */
export interface WorkerPageSearch {
  configuration?: string;
  corpus?: string;
}

export function validateWorkerPageSearch(raw: Record<string, unknown>): WorkerPageSearch {
  return {
    ...(isUuid(raw.configuration) ? { configuration: raw.configuration.toLowerCase() } : {}),
    ...(isUuid(raw.corpus) ? { corpus: raw.corpus.toLowerCase() } : {}),
  };
}
