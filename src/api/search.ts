/**
 * Full-text search of a project (spec 001 §2 "Search page", §7 "Search"): the query, its
 * sources, sort, facet filters and page, sent to GET /corpus/{id}/search/, and the project's
 * reindexing, POST /corpus/{id}/index/.
 */
import { api } from './client';
import type { Job } from './jobs';

export type SearchSource =
  'element' | 'transcription' | 'metadata' | 'transcription_entity' | 'classification';

/** The sources of spec 001 §9, in its order. */
export const SEARCH_SOURCES: SearchSource[] = [
  'element',
  'transcription',
  'metadata',
  'transcription_entity',
  'classification',
];

export const SEARCH_SORTS = ['relevance', 'element_name'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export type SearchFacetName =
  'element_type' | 'worker_run' | 'classification_name' | 'metadata_name' | 'entity_type';

export const SEARCH_FACETS: SearchFacetName[] = [
  'element_type',
  'worker_run',
  'classification_name',
  'metadata_name',
  'entity_type',
];

/** The server's page size of search results. */
export const SEARCH_PAGE_SIZE = 20;

export interface SearchParams {
  query: string;
  sources: SearchSource[];
  sort: SearchSort;
  page: number;
  /** Values of one facet are ORed, facets are ANDed. */
  facets: Partial<Record<SearchFacetName, string[]>>;
}

/** One matching text item: the element it belongs to, and the matched item's own fields. */
export interface SearchHit {
  /** `<source>:<item_id>`. */
  id: string;
  source: SearchSource;
  element_id: string;
  element_type: string;
  /** The element's name. */
  element_text: string;
  /** The IIIF image URL of the element's image, or null. */
  element_image: string | null;
  element_polygon: [number, number][] | null;
  /** The element to open: the highest ancestor on the same image, else the element itself. */
  page_id: string;
  /** The name of page_id's element, so hits of lines on different pages can be told apart. */
  page_name: string;
  parent_id: string | null;
  parent_type: string | null;
  parent_name: string | null;
  worker_run_id: string | null;
  transcription_id: string | null;
  transcription_text: string | null;
  transcription_confidence: number | null;
  classification_id: string | null;
  classification_name: string | null;
  classification_confidence: number | null;
  metadata_id: string | null;
  metadata_type: string | null;
  metadata_name: string | null;
  metadata_text: string | null;
  transcription_entity_id: string | null;
  transcription_entity_text: string | null;
  transcription_entity_type: string | null;
}

export interface SearchFacetValue {
  value: string;
  label: string;
  count: number;
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
