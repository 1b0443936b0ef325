/**
 * The search page's address: the query, sources, sort, page and facet filters as URL search
 * params, so that back, forward, reload and a shared link all give the same search.
 *
 * `query` absent: nothing has been searched yet. `sources` absent: all of them; empty: none
 * (the page then asks for one). Facet values repeat as a list when there are several.
 */
import {
  SEARCH_FACETS,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  type SearchFacetName,
  type SearchParams,
  type SearchSort,
  type SearchSource,
} from '@/api/search';
import { parsePage, toSearchValue, type SearchValue } from '@/lib/navigationQuery';

export type SearchPageSearch = {
  query?: SearchValue;
  sources?: string;
  sort?: Exclude<SearchSort, 'relevance'>;
  page?: number;
} & Partial<Record<SearchFacetName, SearchValue | SearchValue[]>>;

/** What the page searches for; `submitted` is false until a query was sent once. */
export interface SearchPageState {
  submitted: boolean;
  params: SearchParams;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

function parseSources(raw: unknown): SearchSource[] {
  const value = text(raw);
  if (value === null) return [...SEARCH_SOURCES];
  const asked = new Set(value.split(',').map((part) => part.trim()));
  const known = SEARCH_SOURCES.filter((source) => asked.has(source));
  // An address naming no known source asks for all of them, except a deliberately empty one.
  return known.length === 0 && value.trim() !== '' ? [...SEARCH_SOURCES] : known;
}

function parseFacetValues(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  const values: string[] = [];
  for (const item of list) {
    const value = text(item);
    if (value !== null && value !== '' && !values.includes(value)) values.push(value);
  }
  return values;
}

/** Reads the page's search from search params (raw URL strings or the router's values). */
export function parseSearchPage(raw: Record<string, unknown>): SearchPageState {
  const query = text(raw.query);
  const facets: SearchParams['facets'] = {};
  for (const facet of SEARCH_FACETS) {
    const values = parseFacetValues(raw[facet]);
    if (values.length > 0) facets[facet] = values;
  }
  return {
    submitted: query !== null,
    params: {
      query: query ?? '',
      sources: parseSources(raw.sources),
      sort: SEARCH_SORTS.find((sort) => sort === text(raw.sort)) ?? 'relevance',
      page: parsePage(raw.page),
      facets,
    },
  };
}

/** The search params of a state, with defaults left out. */
export function toSearchPageSearch({ submitted, params }: SearchPageState): SearchPageSearch {
  const search: SearchPageSearch = {};
  if (submitted) search.query = toSearchValue(params.query);
  if (params.sources.length < SEARCH_SOURCES.length)
    search.sources = SEARCH_SOURCES.filter((source) => params.sources.includes(source)).join(',');
  if (params.sort !== 'relevance') search.sort = params.sort;
  if (params.page > 1) search.page = params.page;
  for (const facet of SEARCH_FACETS) {
    const values = params.facets[facet] ?? [];
    if (values.length === 1) search[facet] = toSearchValue(values[0]!);
    else if (values.length > 1) search[facet] = values.map(toSearchValue);
  }
  return search;
}

/** The route's validateSearch: anything unknown or invalid falls back to its default. */
export function validateSearchPageSearch(raw: Record<string, unknown>): SearchPageSearch {
  return toSearchPageSearch(parseSearchPage(raw));
}

/** The facet filters with `value` of `facet` added, or taken away when it was there. */
export function toggleFacet(
  facets: SearchParams['facets'],
  facet: SearchFacetName,
  value: string,
): SearchParams['facets'] {
  const current = facets[facet] ?? [];
  const next = current.includes(value)
    ? current.filter((item) => item !== value)
    : [...current, value];
  const result = { ...facets };
  if (next.length > 0) result[facet] = next;
  else delete result[facet];
  return result;
}
