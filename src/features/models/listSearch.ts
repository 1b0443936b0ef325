import type { ModelListQuery } from '@/api/models';

/** The models list's address: `?page=2&name=…&archived=true&compatible_worker=…`. */
export interface ModelListSearch {
  page?: number;
  name?: string;
  archived?: boolean;
  compatible_worker?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Anything the address holds that is not one of these falls back to the default. */
export function validateModelListSearch(raw: Record<string, unknown>): ModelListSearch {
  const page = Number(raw.page);
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  const archived = raw.archived === true || raw.archived === 'true';
  const worker = typeof raw.compatible_worker === 'string' ? raw.compatible_worker : '';
  return {
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    ...(name ? { name } : {}),
    ...(archived ? { archived } : {}),
    ...(UUID.test(worker) ? { compatible_worker: worker.toLowerCase() } : {}),
  };
}

export function modelListQueryOf(search: ModelListSearch): ModelListQuery {
  return {
    page: search.page ?? 1,
    name: search.name ?? '',
    archived: search.archived ?? false,
    compatibleWorker: search.compatible_worker ?? null,
  };
}

export function modelListSearchOf(query: ModelListQuery): ModelListSearch {
  return validateModelListSearch({
    page: query.page,
    name: query.name,
    archived: query.archived,
    compatible_worker: query.compatibleWorker ?? undefined,
  });
}
