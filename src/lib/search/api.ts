/**
 * The shapes of GET /corpus/{id}/search/ (search contract §3, spec 001 §2 "Search page"): what
 * the server answers, the app reads and the device's own search answers alike.
 */

export type SearchSource =
  'element' | 'transcription' | 'metadata' | 'transcription_entity' | 'classification';

/** The sources of spec 001 §9, in its order. */
export const SEARCH_SOURCES: readonly SearchSource[] = [
  'element',
  'transcription',
  'metadata',
  'transcription_entity',
  'classification',
];

export type SearchSort = 'relevance' | 'element_name';
export const SEARCH_SORTS: readonly SearchSort[] = ['relevance', 'element_name'];

export type SearchFacetName =
  'element_type' | 'worker_run' | 'classification_name' | 'metadata_name' | 'entity_type';

export const SEARCH_FACETS: readonly SearchFacetName[] = [
  'element_type',
  'worker_run',
  'classification_name',
  'metadata_name',
  'entity_type',
];

/** The worker_run facet's value for results made by hand, without a worker run. */
export const MANUAL = 'manual';

/** Hits a page holds. */
export const SEARCH_PAGE_SIZE = 20;

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
