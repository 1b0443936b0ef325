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
  /** Present when the order is total: the next page can then start after a key. */
  keyset?: KeysetSource<T>;
}

/**
 * A deep page by OFFSET costs every row before it, and its count every row of the list. Where
 * a list's order is total, the `next` link also carries a `cursor`: the page it follows, the
 * count that page gave and its last key. A request with both `page` and a cursor naming the
 * page before reads the rows after the key instead, and counts nothing: a client following
 * `next` (as Arkindex's clients do) pays for page 150 what it paid for page 1, and sees the
 * count its first page gave all along. `next` then depends on whether a row follows, not on
 * the count. The page number stays the authority: a cursor that does not fit is ignored.
 */
export interface KeysetSource<T> {
  /** How many values a key holds. */
  size: number;
  /** The row's place in the order: JSON strings and numbers. */
  keyOf(row: T): (string | number)[];
  /** The first `limit` rows after `key` in the order. */
  fetchAfter(key: (string | number)[], limit: number): Promise<T[]>;
}

interface Cursor {
  /** The page whose last row the key is. */
  page: number;
  count: number;
  key: (string | number)[];
}

function encodeCursor({ page, count, key }: Cursor): string {
  return Buffer.from(JSON.stringify([page, count, ...key])).toString('base64url');
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isKeyValue = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && isFinite(v));

/** The cursor when it continues `page - 1` with a key of `size` values, else null. */
function readCursor(value: string | undefined, page: number, size: number): Cursor | null {
  if (value === undefined || page < 2) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== size + 2 || parsed[0] !== page - 1) return null;
  const [, count, ...key] = parsed as unknown[];
  if (!isCount(count) || !key.every(isKeyValue)) return null;
  return { page: page - 1, count, key: key as (string | number)[] };
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

const pageQuery = z.object({ page: queryValue, page_size: queryValue, cursor: queryValue });

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
  cursor?: string;
}

/**
 * DRF leniency: a bad or missing page_size means the default and a large one is capped,
 * while a page that is not a positive number (or "last") is a 404 "Invalid page.".
 */
export function readPageQuery(query: unknown, options: PageOptions = {}): PageRequest {
  const defaultSize = options.defaultPageSize ?? DEFAULT_PAGE_SIZE;
  const maxSize = options.maxPageSize ?? MAX_PAGE_SIZE;
  const { page, page_size, cursor } = parse(pageQuery, query ?? {});
  const size = page_size === undefined ? null : positiveInt(page_size);
  const pageSize = size === null ? defaultSize : Math.min(size, maxSize);
  if (page === undefined) return { page: 1, pageSize };
  if (page === 'last') return { page: 'last', pageSize };
  const number = positiveInt(page);
  if (number === null) invalidPage();
  return { page: number, pageSize, cursor };
}

function requestUrl(request: FastifyRequest): URL {
  try {
    return new URL(request.url, `${request.protocol}://${request.host}`);
  } catch {
    // A Host header that is not a host must not turn a list into a 500.
    return new URL(request.url, `${request.protocol}://localhost`);
  }
}

function pageLink(url: URL, page: number, cursor: Cursor | null = null): string {
  const link = new URL(url);
  // DRF drops `page` from the link to the first page rather than writing page=1.
  if (page === 1) link.searchParams.delete('page');
  else link.searchParams.set('page', String(page));
  if (cursor) link.searchParams.set('cursor', encodeCursor(cursor));
  else link.searchParams.delete('cursor');
  return link.toString();
}

/** One page of `source` for this request, or a 404 "Invalid page." past the last page. */
export async function paginate<T>(
  request: FastifyRequest,
  source: PageSource<T>,
  options: PageOptions = {},
): Promise<Page<T>> {
  const { page, pageSize, cursor } = readPageQuery(request.query, options);
  const url = requestUrl(request);
  const { keyset } = source;
  const followed = keyset && page !== 'last' ? readCursor(cursor, page, keyset.size) : null;
  if (keyset && followed) return keysetPage(url, keyset, followed, pageSize);
  // A numbered page is read beside its count: on PostgreSQL the two round trips overlap (a
  // page past the end reads nothing and is refused once the count is known).
  const window = (n: number) => ({ limit: pageSize, offset: (n - 1) * pageSize });
  const [count, early] = await Promise.all([
    source.count(),
    page === 'last' ? null : source.fetch(window(page)),
  ]);
  // An empty list still has its first page, as Django's paginator allows.
  const pages = Math.max(1, Math.ceil(count / pageSize));
  const number = page === 'last' ? pages : page;
  if (number > pages) invalidPage();
  const results = early ?? (await source.fetch(window(number)));
  const last = results[results.length - 1];
  const next = keyset && last ? { page: number, count, key: keyset.keyOf(last) } : null;
  return {
    count,
    number,
    next: number < pages ? pageLink(url, number + 1, next) : null,
    previous: number > 1 ? pageLink(url, number - 1) : null,
    results,
  };
}

/** The page after a cursor's: its rows by key, one more read to know whether a page follows. */
async function keysetPage<T>(
  url: URL,
  keyset: KeysetSource<T>,
  cursor: Cursor,
  pageSize: number,
): Promise<Page<T>> {
  const rows = await keyset.fetchAfter(cursor.key, pageSize + 1);
  const number = cursor.page + 1;
  if (rows.length === 0) invalidPage();
  const results = rows.slice(0, pageSize);
  const last = results[results.length - 1]!;
  // The count the first page gave, unless the list has grown past it since.
  const count = Math.max(cursor.count, (number - 1) * pageSize + rows.length);
  const next = { page: number, count, key: keyset.keyOf(last) };
  return {
    count,
    number,
    next: rows.length > pageSize ? pageLink(url, number + 1, next) : null,
    previous: pageLink(url, number - 1),
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
