/**
 * The navigation query (spec 001 §3, §5): filters, page, page size and ordering of an element
 * list, read from and written to the URL's search params so that a link reproduces the view.
 */
import {
  DEFAULT_METADATA_OPERATOR,
  FILTER_NAMES,
  isMetadataOperator,
  type FilterName,
  type Filters,
  type MetadataOperator,
} from './filters';

export const PAGE_SIZES = [20, 50, 100, 500] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 20;

export const ORDERS = ['name', 'created', 'random', 'position'] as const;
export type Order = (typeof ORDERS)[number];
export type OrderDirection = 'asc' | 'desc';

export interface NavigationQuery {
  filters: Filters;
  /** Only meaningful with a metadata_value filter. */
  metadataOperator: MetadataOperator;
  page: number;
  pageSize: PageSize;
  order: Order;
  /** Ignored for a random order. */
  direction: OrderDirection;
}

/** Where the list is: a project's elements, or the children of an element (position allowed). */
export interface QueryContext {
  underElement?: boolean;
}

/**
 * A search value as the router keeps it. Its default serialiser quotes strings that read as
 * JSON ("true", "2"), so booleans and numbers are kept as such to give plain URLs.
 */
export type SearchValue = string | number | boolean;

export type SearchKey =
  FilterName | 'metadata_operator' | 'page' | 'page_size' | 'order' | 'order_direction';

export type NavigationSearch = Partial<Record<SearchKey, SearchValue>>;

export function orderChoices(context: QueryContext = {}): Order[] {
  return context.underElement ? [...ORDERS] : ORDERS.filter((order) => order !== 'position');
}

export function defaultOrder(context: QueryContext = {}): Order {
  return context.underElement ? 'position' : 'name';
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

/** One of the allowed sizes, else the default 20. */
export function parsePageSize(value: unknown): PageSize {
  const number = Number(text(value));
  return (PAGE_SIZES as readonly number[]).includes(number)
    ? (number as PageSize)
    : DEFAULT_PAGE_SIZE;
}

/** A positive integer, else 1. */
export function parsePage(value: unknown): number {
  const raw = text(value);
  if (raw === null || !/^\d+$/.test(raw.trim())) return 1;
  const page = Number(raw);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** A known order allowed here, else position under an element and name otherwise. */
export function parseOrder(value: unknown, context: QueryContext = {}): Order {
  const raw = text(value);
  return orderChoices(context).find((order) => order === raw) ?? defaultOrder(context);
}

export function parseDirection(value: unknown): OrderDirection {
  return text(value) === 'desc' ? 'desc' : 'asc';
}

/** Reads the query from search params (raw URL strings or the router's parsed values). */
export function parseNavigationQuery(
  raw: Record<string, unknown>,
  context: QueryContext = {},
): NavigationQuery {
  const filters: Filters = {};
  for (const name of FILTER_NAMES) {
    // top_level only means something for a project's own list.
    if (name === 'top_level' && context.underElement) continue;
    const value = text(raw[name]);
    if (value !== null && value.trim() !== '') filters[name] = value;
  }
  const operator = text(raw.metadata_operator);
  return {
    filters,
    metadataOperator: isMetadataOperator(operator) ? operator : DEFAULT_METADATA_OPERATOR,
    page: parsePage(raw.page),
    pageSize: parsePageSize(raw.page_size),
    order: parseOrder(raw.order, context),
    direction: parseDirection(raw.order_direction),
  };
}

/** The router value that serialises to exactly `value`. */
export function toSearchValue(value: string): SearchValue {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/.test(value) && String(Number(value)) === value) {
    return Number(value);
  }
  return value;
}

/** The query as search params, defaults left out so links stay short. */
export function toNavigationSearch(
  query: NavigationQuery,
  context: QueryContext = {},
): NavigationSearch {
  const search: NavigationSearch = {};
  for (const name of FILTER_NAMES) {
    const value = query.filters[name];
    if (value !== undefined) search[name] = toSearchValue(value);
  }
  if (
    query.filters.metadata_value !== undefined &&
    query.metadataOperator !== DEFAULT_METADATA_OPERATOR
  ) {
    search.metadata_operator = query.metadataOperator;
  }
  if (query.pageSize !== DEFAULT_PAGE_SIZE) search.page_size = query.pageSize;
  if (query.order !== defaultOrder(context)) search.order = query.order;
  if (query.order !== 'random' && query.direction !== 'asc')
    search.order_direction = query.direction;
  // An empty query is the navigation page's cue to go to the top level, so a view with nothing
  // filtered keeps its page to stay what the person chose.
  if (query.page !== 1 || Object.keys(search).length === 0) search.page = query.page;
  return search;
}

const SEARCH_KEYS: readonly string[] = [
  ...FILTER_NAMES,
  'metadata_operator',
  'page',
  'page_size',
  'order',
  'order_direction',
];

/**
 * validateSearch for a route: whatever the URL holds becomes a clean, valid query, except that
 * a URL without any navigation parameter stays empty, for the caller to apply its default.
 */
export function validateNavigationSearch(
  raw: Record<string, unknown>,
  context: QueryContext = {},
): NavigationSearch {
  if (!SEARCH_KEYS.some((key) => raw[key] !== undefined)) return {};
  return toNavigationSearch(parseNavigationQuery(raw, context), context);
}

/** The list request's query string values. */
export function toListQuery(query: NavigationQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const name of FILTER_NAMES) {
    const value = query.filters[name];
    if (value !== undefined) params[name] = value;
  }
  if (
    query.filters.metadata_value !== undefined &&
    query.metadataOperator !== DEFAULT_METADATA_OPERATOR
  ) {
    params.metadata_operator = query.metadataOperator;
  }
  params.page = query.page;
  params.page_size = query.pageSize;
  params.order = query.order;
  if (query.order !== 'random') params.order_direction = query.direction;
  return params;
}

/** The query as a URL query string (no leading "?"). */
export function serializeNavigationQuery(
  query: NavigationQuery,
  context: QueryContext = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(toNavigationSearch(query, context))) {
    params.set(key, String(value));
  }
  return params.toString();
}

export function parseNavigationQueryString(
  queryString: string,
  context: QueryContext = {},
): NavigationQuery {
  return parseNavigationQuery(
    Object.fromEntries(new URLSearchParams(queryString.replace(/^\?/, ''))),
    context,
  );
}

export function isEmptySearch(search: Record<string, unknown>): boolean {
  return Object.values(search).every((value) => value === undefined);
}

/**
 * Where an empty query leads (spec 000 §2): the top-level elements of the project's top-level
 * type, or its top-level folders when it has none.
 */
export function topLevelSearch(topLevelType: string | null): NavigationSearch {
  return topLevelType ? { top_level: true, type: topLevelType } : { top_level: true, folder: true };
}

// Any change other than the page itself starts over at the first page: page 7 of the old
// results means nothing in the new ones.

export function withFilter(
  query: NavigationQuery,
  name: FilterName,
  value: string,
  operator?: MetadataOperator,
): NavigationQuery {
  return {
    ...query,
    filters: { ...query.filters, [name]: value },
    metadataOperator: name === 'metadata_value' && operator ? operator : query.metadataOperator,
    page: 1,
  };
}

export function withoutFilter(query: NavigationQuery, name: FilterName): NavigationQuery {
  const filters = { ...query.filters };
  delete filters[name];
  return {
    ...query,
    filters,
    metadataOperator:
      name === 'metadata_value' ? DEFAULT_METADATA_OPERATOR : query.metadataOperator,
    page: 1,
  };
}

export function withOrder(
  query: NavigationQuery,
  order: Order,
  direction: OrderDirection = query.direction,
): NavigationQuery {
  return { ...query, order, direction, page: 1 };
}

export function withPageSize(query: NavigationQuery, pageSize: number): NavigationQuery {
  return { ...query, pageSize: parsePageSize(pageSize), page: 1 };
}

export function withPage(query: NavigationQuery, page: number): NavigationQuery {
  return { ...query, page: parsePage(page) };
}
