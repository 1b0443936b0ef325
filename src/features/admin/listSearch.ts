import type { ListQuery } from './api';

/** The admin lists' address: `?page=2&search=…`, anything else falls back to the first page. */
export interface ListSearch {
  page?: number;
  search?: string;
}

export function validateListSearch(raw: { page?: unknown; search?: unknown }): ListSearch {
  const page = Number(raw.page);
  const search = typeof raw.search === 'string' ? raw.search.trim() : '';
  return {
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    ...(search ? { search } : {}),
  };
}

export function listQuery(search: ListSearch): ListQuery {
  return { page: search.page ?? 1, search: search.search ?? '' };
}
