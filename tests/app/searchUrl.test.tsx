import { describe, expect, it } from 'vitest';
import { defaultParseSearch, defaultStringifySearch } from '@tanstack/react-router';
import { SEARCH_SOURCES, searchQueryString, type SearchParams } from '@/api/search';
import {
  parseSearchPage,
  toSearchPageSearch,
  toggleFacet,
  validateSearchPageSearch,
} from '@/features/search/searchUrl';

/** Through the address as the router writes and reads it. */
function roundTrip(params: SearchParams, submitted = true) {
  const href = defaultStringifySearch(toSearchPageSearch({ submitted, params }));
  return { href, state: parseSearchPage(validateSearchPageSearch(defaultParseSearch(href))) };
}

describe("the search page's address", () => {
  it('gives back every part of a search', () => {
    const params: SearchParams = {
      query: '"saint louis" + -paris (1789 OR roi*)',
      sources: ['transcription', 'classification'],
      sort: 'element_name',
      page: 3,
      facets: {
        element_type: ['text_line', 'page'],
        worker_run: ['manual'],
        metadata_name: ['Place, of birth'],
      },
    };
    const { href, state } = roundTrip(params);
    expect(state).toEqual({ submitted: true, params });
    expect(href).toContain('sources=transcription%2Cclassification');
    expect(href).toContain('worker_run=manual');
  });

  it('keeps numbers, booleans and empty values as the text typed', () => {
    for (const query of ['1789', 'true', '', '  ', '-', 'null']) {
      const { state } = roundTrip({
        query,
        sources: [...SEARCH_SOURCES],
        sort: 'relevance',
        page: 1,
        facets: { classification_name: ['42'] },
      });
      expect(state.params.query).toBe(query);
      expect(state.params.facets).toEqual({ classification_name: ['42'] });
    }
  });

  it('leaves defaults out, tells no source from all of them, and not searched from empty', () => {
    const base: SearchParams = {
      query: '',
      sources: [...SEARCH_SOURCES],
      sort: 'relevance',
      page: 1,
      facets: {},
    };
    expect(toSearchPageSearch({ submitted: false, params: base })).toEqual({});
    expect(toSearchPageSearch({ submitted: true, params: base })).toEqual({ query: '' });
    expect(roundTrip({ ...base, sources: [] }).state.params.sources).toEqual([]);
    expect(roundTrip(base, false).state.submitted).toBe(false);
  });

  it('falls back to the defaults on what it does not know', () => {
    expect(
      parseSearchPage({
        sources: 'nonsense',
        sort: 'random',
        page: '-2',
        element_type: ['', 'page', 'page'],
        unknown: 'x',
      }),
    ).toEqual({
      submitted: false,
      params: {
        query: '',
        sources: SEARCH_SOURCES,
        sort: 'relevance',
        page: 1,
        facets: { element_type: ['page'] },
      },
    });
    expect(parseSearchPage({ sources: 'metadata,bogus,element' }).params.sources).toEqual([
      'element',
      'metadata',
    ]);
  });

  it('adds a facet value, and takes it away when given again', () => {
    const once = toggleFacet({}, 'entity_type', 'person');
    expect(once).toEqual({ entity_type: ['person'] });
    const twice = toggleFacet(once, 'entity_type', 'place');
    expect(twice).toEqual({ entity_type: ['person', 'place'] });
    expect(
      toggleFacet(toggleFacet(twice, 'entity_type', 'person'), 'entity_type', 'place'),
    ).toEqual({});
  });

  it('sends facet values one per parameter, and no sources when all are asked', () => {
    const query = new URLSearchParams(
      searchQueryString({
        query: 'a',
        sources: [...SEARCH_SOURCES],
        sort: 'relevance',
        page: 2,
        facets: { metadata_name: ['Place, of birth', 'Date'] },
      }),
    );
    expect(query.get('sources')).toBeNull();
    expect(query.getAll('metadata_name')).toEqual(['Place, of birth', 'Date']);
    expect(query.get('page')).toBe('2');
  });
});
