import type { ProcessListQuery } from '@/api/processes';
import { PROCESS_MODES, PROCESS_STATES } from '@/api/processTypes';
import type { ProcessMode, ProcessState } from '@/api/processTypes';

/** Page sizes a list offers (spec 000 §9). */
export const PAGE_SIZES = [20, 50, 100, 500] as const;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * The processes list's address. `created` and `started` are on unless the address says
 * `false`: the list opens on the caller's started processes (spec 000 §2 processes-list).
 */
export interface ProcessListSearch {
  page?: number;
  page_size?: number;
  name?: string;
  mode?: ProcessMode;
  state?: ProcessState;
  created?: boolean;
  started?: boolean;
}

function flag(value: unknown): boolean | undefined {
  if (value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  return undefined;
}

/** Anything the address holds that is not one of these falls back to the default. */
export function validateProcessListSearch(raw: Record<string, unknown>): ProcessListSearch {
  const page = Number(raw.page);
  const pageSize = Number(raw.page_size);
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  const mode = PROCESS_MODES.find((item) => item === raw.mode);
  const state = PROCESS_STATES.find((item) => item === raw.state);
  const created = flag(raw.created);
  const started = flag(raw.started);
  return {
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    ...((PAGE_SIZES as readonly number[]).includes(pageSize) && pageSize !== DEFAULT_PAGE_SIZE
      ? { page_size: pageSize }
      : {}),
    ...(name ? { name } : {}),
    ...(mode ? { mode } : {}),
    ...(state ? { state } : {}),
    ...(created !== undefined ? { created } : {}),
    ...(started !== undefined ? { started } : {}),
  };
}

export function processListQueryOf(search: ProcessListSearch): ProcessListQuery {
  return {
    page: search.page ?? 1,
    pageSize: search.page_size ?? DEFAULT_PAGE_SIZE,
    name: search.name ?? '',
    mode: search.mode ?? '',
    state: search.state ?? '',
    created: search.created ?? true,
    started: search.started ?? true,
  };
}

export function processListSearchOf(query: ProcessListQuery): ProcessListSearch {
  return validateProcessListSearch({
    page: query.page,
    page_size: query.pageSize,
    name: query.name,
    mode: query.mode,
    state: query.state,
    // Only "off" is written: on is what the bare address means.
    created: query.created ? undefined : false,
    started: query.started ? undefined : false,
  });
}
