/**
 * Page-number lists as Django REST Framework's PageNumberPagination answers them, since
 * Arkindex clients follow `next` until it is null: `{count, number, next, previous, results}`
 * with absolute links built from the request, `page` and `page_size` query parameters.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound } from './errors';
import { parse } from './validation';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;

export interface Page<T> {
  count: number;
  number: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface PageWindow {
  limit: number;
  offset: number;
}

export interface PageSource<T> {
  count(): Promise<number>;
  fetch(window: PageWindow): Promise<T[]>;
}

export interface PageOptions {
  defaultPageSize?: number;
  maxPageSize?: number;
}

// A repeated parameter arrives as an array; Django reads the last value, so do we.
const queryValue = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (Array.isArray(value) ? value[value.length - 1] : value));

const pageQuery = z.object({ page: queryValue, page_size: queryValue });

function positiveInt(value: string): number | null {
  const match = /^\s*\+?(\d+)\s*$/.exec(value);
  if (!match) return null;
  const number = Number(match[1]);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
}

function invalidPage(): never {
  throw notFound('Invalid page.');
}

export interface PageRequest {
  page: number | 'last';
  pageSize: number;
}

/**
 * DRF leniency: a bad or missing page_size means the default and a large one is capped,
 * while a page that is not a positive number (or "last") is a 404 "Invalid page.".
 */
export function readPageQuery(query: unknown, options: PageOptions = {}): PageRequest {
  const defaultSize = options.defaultPageSize ?? DEFAULT_PAGE_SIZE;
  const maxSize = options.maxPageSize ?? MAX_PAGE_SIZE;
  const { page, page_size } = parse(pageQuery, query ?? {});
  const size = page_size === undefined ? null : positiveInt(page_size);
  const pageSize = size === null ? defaultSize : Math.min(size, maxSize);
  if (page === undefined) return { page: 1, pageSize };
  if (page === 'last') return { page: 'last', pageSize };
  const number = positiveInt(page);
  if (number === null) invalidPage();
  return { page: number, pageSize };
}

function requestUrl(request: FastifyRequest): URL {
  try {
    return new URL(request.url, `${request.protocol}://${request.host}`);
  } catch {
    // A Host header that is not a host must not turn a list into a 500.
    return new URL(request.url, `${request.protocol}://localhost`);
  }
}

function pageLink(url: URL, page: number): string {
  const link = new URL(url);
  // DRF drops `page` from the link to the first page rather than writing page=1.
  if (page === 1) link.searchParams.delete('page');
  else link.searchParams.set('page', String(page));
  return link.toString();
}

/** One page of `source` for this request, or a 404 "Invalid page." past the last page. */
export async function paginate<T>(
  request: FastifyRequest,
  source: PageSource<T>,
  options: PageOptions = {},
): Promise<Page<T>> {
  const { page, pageSize } = readPageQuery(request.query, options);
  const count = await source.count();
  // An empty list still has its first page, as Django's paginator allows.
  const pages = Math.max(1, Math.ceil(count / pageSize));
  const number = page === 'last' ? pages : page;
  if (number > pages) invalidPage();
  const results = await source.fetch({ limit: pageSize, offset: (number - 1) * pageSize });
  const url = requestUrl(request);
  return {
    count,
    number,
    next: number < pages ? pageLink(url, number + 1) : null,
    previous: number > 1 ? pageLink(url, number - 1) : null,
    results,
  };
}

/** How many rows a select finds, whatever it selects: a page source's count(). */
export async function countRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const row = (await query
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst()) as { count?: number | string | bigint } | undefined;
  return Number(row?.count ?? 0);
}
