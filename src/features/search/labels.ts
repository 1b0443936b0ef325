import type { SearchFacetName, SearchSort, SearchSource } from '@/api/search';

export const SOURCE_LABELS: Record<SearchSource, string> = {
  element: 'Elements',
  transcription: 'Transcriptions',
  metadata: 'Metadata',
  transcription_entity: 'Entities',
  classification: 'Classifications',
};

export const SORT_LABELS: Record<SearchSort, string> = {
  relevance: 'Relevance',
  element_name: 'Element name',
};

export const FACET_LABELS: Record<SearchFacetName, string> = {
  element_type: 'Element type',
  worker_run: 'Worker run',
  classification_name: 'Class',
  metadata_name: 'Metadata name',
  entity_type: 'Entity type',
};

/** Spec 001 §2 "Search page": at least one source. */
export const NO_SOURCE = 'Please select at least one source.';
/** Spec 001 §8. */
export const NO_RESULTS = 'No results.';
/** Spec 001 §9: the matched text of a hit. */
export const DESCRIPTION_LENGTH = 100;
/** What the page says of a project the server does not index (the API's own words). */
export const NOT_INDEXABLE = 'This project is not indexable.';
