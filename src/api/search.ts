/**
 * Full-text search of a project (spec 001 §2 "Search page", §7 "Search"): the query, its
 * sources, sort, facet filters and page, sent to GET /corpus/{id}/search/, and the project's
 * reindexing, POST /corpus/{id}/index/.
 */
import { api } from './client';
import type { Job } from './jobs';

import {
  SEARCH_FACETS,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  type SearchFacetName,
  type SearchFacetValue,
  type SearchHit,
  type SearchSort,
  type SearchSource,
} from '@/lib/search/api';

export {
  SEARCH_FACETS,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  type SearchFacetName,
  type SearchFacetValue,
  type SearchHit,
  type SearchSort,
  type SearchSource,
};

export interface SearchParams {
  query: string;
  sources: SearchSource[];
  sort: SearchSort;
  page: number;
  /** Values of one facet are ORed, facets are ANDed. */
  facets: Partial<Record<SearchFacetName, string[]>>;
}

export interface SearchResponse {
  count: number;
  number: number;
  next: string | null;
  previous: string | null;
  results: SearchHit[];
  facets: Record<SearchFacetName, SearchFacetValue[]>;
}

/**
 * The request's query string. Sources are left out when all are asked (the server's default);
 * facet values repeat their name, since a class or metadata name may hold a comma.
 */
export function searchQueryString(params: SearchParams): string {
  const query = new URLSearchParams();
  query.set('query', params.query);
  if (params.sources.length > 0 && params.sources.length < SEARCH_SOURCES.length)
    query.set('sources', params.sources.join(','));
  query.set('sort', params.sort);
  query.set('page', String(params.page));
  for (const facet of SEARCH_FACETS) {
    for (const value of params.facets[facet] ?? []) query.append(facet, value);
  }
  return query.toString();
}

export function searchCorpus(corpusId: string, params: SearchParams): Promise<SearchResponse> {
  return api<SearchResponse>(`/corpus/${corpusId}/search/?${searchQueryString(params)}`);
}

/** Rebuilds the project's search index as a background job (project admins). */
export function reindexCorpus(corpusId: string): Promise<Job> {
  return api<Job>(`/corpus/${corpusId}/index/`, { method: 'POST' });
}
