/**
 * SearchCorpus (spec 001 §2 "Search page", §8 "Search"; search contract §3):
 * GET /corpus/{id}/search/ with query, sources, sort, page, only_facets and the facet filters
 * element_type, worker_run, classification_name, metadata_name and entity_type. Readable and
 * indexable projects only, while the search feature is on. The rules live in
 * services/search/search.ts and the query's translation in services/search/compile.ts.
 */
import type { FastifyInstance } from 'fastify';
import { notFound, validationError, validationErrors, type ErrorItem } from '../../errors';
import { requestOrigin } from '../../origin';
import { paginate } from '../../pagination';
import { findCorpusAccess } from '../../permissions';
import { MAX_TREE_DEPTH, treeDepth } from '../../services/search/compile';
import { flushSearchIndex } from '../../services/search/pending';
import {
  MANUAL,
  SEARCH_FACETS,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  SEARCH_SOURCES,
  openSearch,
  type SearchFacet,
  type SearchRequest,
  type SearchSort,
  type SearchSource,
} from '../../services/search/search';
import { parseSearchQuery, type SearchNode } from '../../../src/lib/search/query';
import { errors, idParams } from '../../openapi/schemas';
import { searchPage, searchQuery } from './schemas';

export const SEARCH_MESSAGES = {
  notIndexable: 'This project is not indexable.',
  tooComplex: 'The query has too many nested groups.',
};

/** Pending index rows taken before each search, so what was just written is found. */
const FLUSH_BEFORE_SEARCH = 2000;

/** Values of one facet filter: more would only strain the statement's parameter limit. */
export const MAX_FACET_VALUES = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type RawQuery = Record<string, unknown>;

/** Every value of a repeatable parameter, given as `name=a&name=b` or `name[]=a`. */
function allValues(query: RawQuery, name: string): string[] {
  const values: string[] = [];
  for (const key of [name, `${name}[]`]) {
    const raw = query[key];
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (typeof value === 'string') values.push(value);
    }
  }
  return values;
}

/** The last value of a single parameter, as Django reads it. */
function lastValue(query: RawQuery, name: string): string | undefined {
  const raw = query[name];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof value === 'string' ? value : undefined;
}

interface SearchParams {
  request: Omit<SearchRequest, 'corpusId'>;
  onlyFacets: boolean;
}

/** Reads every parameter; one 400 names every bad one. */
export function readSearchParams(query: RawQuery): SearchParams {
  const errors: ErrorItem[] = [];
  const fail = (attr: string, detail: string, code = 'invalid') => {
    errors.push({ code, detail, attr });
  };

  let tree: SearchNode = { kind: 'all' };
  const text = lastValue(query, 'query') ?? '';
  const parsed = parseSearchQuery(text);
  if (!parsed.ok) fail('query', parsed.error);
  else if (treeDepth(parsed.tree) > MAX_TREE_DEPTH) fail('query', SEARCH_MESSAGES.tooComplex);
  else tree = parsed.tree;

  const sources: SearchSource[] = [];
  for (const value of allValues(query, 'sources').flatMap((item) => item.split(','))) {
    const source = value.trim();
    if (source === '') continue;
    if ((SEARCH_SOURCES as readonly string[]).includes(source)) {
      sources.push(source as SearchSource);
    } else {
      fail('sources', `"${source}" is not a valid choice.`, 'invalid_choice');
    }
  }

  let sort: SearchSort = 'relevance';
  const sortValue = lastValue(query, 'sort');
  if (sortValue !== undefined && sortValue !== '') {
    if ((SEARCH_SORTS as readonly string[]).includes(sortValue)) sort = sortValue as SearchSort;
    else fail('sort', `"${sortValue}" is not a valid choice.`, 'invalid_choice');
  }

  // A page past the last one is the paginator's 404; one that is not a number is a 400 here.
  const pageValue = lastValue(query, 'page');
  if (pageValue !== undefined && pageValue !== '') {
    if (!/^\s*\+?\d+\s*$/.test(pageValue) || !Number.isSafeInteger(Number(pageValue))) {
      fail('page', 'A valid integer is required.');
    } else if (Number(pageValue) < 1) {
      fail('page', 'Ensure this value is greater than or equal to 1.', 'min_value');
    }
  }

  let onlyFacets = false;
  const onlyValue = lastValue(query, 'only_facets');
  if (onlyValue !== undefined && onlyValue !== '') {
    const value = onlyValue.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(value)) onlyFacets = true;
    else if (!['false', '0', 'no'].includes(value)) fail('only_facets', 'Must be a valid boolean.');
  }

  const facets: Partial<Record<SearchFacet, string[]>> = {};
  for (const facet of SEARCH_FACETS) {
    const values = [...new Set(allValues(query, facet).filter((value) => value !== ''))];
    if (values.length === 0) continue;
    // PostgreSQL text cannot hold NUL: no value has one, and the driver would refuse it.
    if (values.some((value) => value.includes('\u0000'))) {
      fail(facet, 'Null characters are not allowed.');
      continue;
    }
    if (values.length > MAX_FACET_VALUES) {
      fail(facet, `Ensure this field has no more than ${MAX_FACET_VALUES} elements.`, 'max_length');
      continue;
    }
    if (facet === 'worker_run') {
      const bad = values.find((value) => value !== MANUAL && !UUID.test(value));
      if (bad !== undefined) {
        fail('worker_run', `"${bad}" is not a worker run id or "${MANUAL}".`);
        continue;
      }
      facets.worker_run = values.map((value) => (value === MANUAL ? value : value.toLowerCase()));
    } else {
      facets[facet] = values;
    }
  }

  if (errors.length) throw validationErrors(errors);
  return { request: { tree, sources, sort, facets }, onlyFacets };
}

const searchSchema = {
  operationId: 'SearchCorpus',
  tags: ['search'],
  'x-paginated': true,
  params: idParams,
  querystring: searchQuery,
  response: { 200: searchPage, ...errors(400, 401, 403, 404) },
};

type IdParams = { Params: { id: string } };

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  app.get<IdParams>('/corpus/:id/search/', { schema: searchSchema }, async (request) => {
    // Off, the call does not exist: the same 404 as an unknown path.
    if (!app.config.features.search) throw notFound();
    const access = await findCorpusAccess(app.db, request.user, request.params.id);
    if (!access) throw notFound();
    if (!access.corpus.indexable) throw validationError('corpus', SEARCH_MESSAGES.notIndexable);
    const { request: params, onlyFacets } = readSearchParams((request.query ?? {}) as RawQuery);

    const handle = { db: app.db, dialect: app.dialect };
    await flushSearchIndex(handle, { limit: FLUSH_BEFORE_SEARCH });
    const search = await openSearch(
      handle,
      { ...params, corpusId: access.corpus.id },
      requestOrigin(request),
    );
    const page = await paginate(
      request,
      {
        count: async () => search.count,
        fetch: async (window) => (onlyFacets ? [] : search.fetch(window)),
      },
      { defaultPageSize: SEARCH_PAGE_SIZE, maxPageSize: SEARCH_PAGE_SIZE },
    );
    return { ...page, facets: search.facets };
  });
}
