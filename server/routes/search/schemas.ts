/**
 * What SearchCorpus reads and answers (src/lib/search/api.ts, search contract §3): the query
 * with its sources, sort and facet filters, and one page of hits with every facet's counts.
 */
import { z } from 'zod';
import { pageQuery, point, queryFlag } from '../../openapi/schemas';
import {
  SEARCH_FACETS,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  type SearchSource,
} from '../../services/search/search';

const uuid = z.uuid();
const sources = SEARCH_SOURCES as readonly [SearchSource, ...SearchSource[]];
const values = z.array(z.string()).optional();

export const searchQuery = z.object({
  query: z.string().optional().describe('Words, "phrases", AND, OR, NOT and (groups)'),
  sources: z.array(z.enum(sources)).optional().describe('Every source when none; comma-separated'),
  sort: z.enum(SEARCH_SORTS as readonly [string, ...string[]]).optional(),
  page: pageQuery.shape.page,
  page_size: z.number().int().min(1).max(20).optional(),
  only_facets: queryFlag.describe('The count and facets without hits'),
  element_type: values,
  worker_run: values.describe('Worker run ids, or "manual"'),
  classification_name: values,
  metadata_name: values,
  entity_type: values,
});

const text = z.string().nullable();
export const searchHit = z
  .object({
    id: z.string().describe('`<source>:<item id>`'),
    source: z.enum(sources),
    element_id: uuid,
    element_type: z.string(),
    element_text: z.string(),
    element_image: text,
    element_polygon: z.array(point).nullable(),
    page_id: uuid,
    page_name: z.string(),
    parent_id: uuid.nullable(),
    parent_type: text,
    parent_name: text,
    worker_run_id: uuid.nullable(),
    transcription_id: uuid.nullable(),
    transcription_text: text,
    transcription_confidence: z.number().nullable(),
    classification_id: uuid.nullable(),
    classification_name: text,
    classification_confidence: z.number().nullable(),
    metadata_id: uuid.nullable(),
    metadata_type: text,
    metadata_name: text,
    metadata_text: text,
    transcription_entity_id: uuid.nullable(),
    transcription_entity_text: text,
    transcription_entity_type: text,
  })
  .meta({ id: 'SearchHit' });

const facetValue = z.object({ value: z.string(), label: z.string(), count: z.number().int() });

export const searchPage = z.object({
  count: z.number().int(),
  number: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(searchHit),
  facets: z.object(Object.fromEntries(SEARCH_FACETS.map((name) => [name, z.array(facetValue)]))),
});
