import { describe, expect, it } from 'vitest';
import { defaultParseSearch, defaultStringifySearch } from '@tanstack/react-router';
import {
  parseNavigationQuery,
  parseNavigationQueryString,
  serializeNavigationQuery,
  toListQuery,
  toNavigationSearch,
  topLevelSearch,
  validateNavigationSearch,
  withFilter,
  withOrder,
  withPage,
  withPageSize,
  withoutFilter,
  type NavigationQuery,
} from '@/lib/navigationQuery';

const base = parseNavigationQuery({});
const underElement = { underElement: true };

describe('defaults', () => {
  it('are page 1 of 20, by name, ascending, unfiltered, on a project', () => {
    expect(base).toEqual({
      filters: {},
      metadataOperator: 'eq',
      page: 1,
      pageSize: 20,
      order: 'name',
      direction: 'asc',
    });
  });

  it('order by position under an element', () => {
    expect(parseNavigationQuery({}, underElement).order).toBe('position');
  });
});

describe('page size', () => {
  it('keeps 20, 50, 100 and 500, from strings or numbers', () => {
    expect(
      [20, '50', 100, '500'].map((size) => parseNavigationQuery({ page_size: size }).pageSize),
    ).toEqual([20, 50, 100, 500]);
  });

  it('turns any other value into 20', () => {
    for (const size of [10, '30', 1000, 0, -50, 'fifty', '50.5', null, true]) {
      expect(parseNavigationQuery({ page_size: size }).pageSize).toBe(20);
    }
  });
});

describe('page', () => {
  it('is a positive integer, else 1', () => {
    expect(parseNavigationQuery({ page: '3' }).page).toBe(3);
    expect(parseNavigationQuery({ page: 12 }).page).toBe(12);
    for (const page of [0, -2, '1.5', 'two', '', null, 1e30]) {
      expect(parseNavigationQuery({ page }).page).toBe(1);
    }
  });
});

describe('order', () => {
  it('takes name, created and random on a project; position falls back to name', () => {
    for (const order of ['name', 'created', 'random'] as const) {
      expect(parseNavigationQuery({ order }).order).toBe(order);
    }
    expect(parseNavigationQuery({ order: 'position' }).order).toBe('name');
    expect(parseNavigationQuery({ order: 'size' }).order).toBe('name');
  });

  it('takes position under an element, and falls back to it', () => {
    expect(parseNavigationQuery({ order: 'position' }, underElement).order).toBe('position');
    expect(parseNavigationQuery({ order: 'name' }, underElement).order).toBe('name');
    expect(parseNavigationQuery({ order: 'size' }, underElement).order).toBe('position');
  });

  it('reads the direction as asc unless desc', () => {
    expect(parseNavigationQuery({ order_direction: 'desc' }).direction).toBe('desc');
    expect(parseNavigationQuery({ order_direction: 'down' }).direction).toBe('asc');
  });

  it('sends no direction for a random order', () => {
    const random = withOrder(base, 'random', 'desc');
    expect(toListQuery(random)).not.toHaveProperty('order_direction');
    expect(toNavigationSearch(random)).not.toHaveProperty('order_direction');
    expect(toListQuery(withOrder(base, 'created', 'desc'))).toMatchObject({
      order: 'created',
      order_direction: 'desc',
    });
  });
});

describe('filters', () => {
  it('keeps the known filters and drops unknown parameters and blanks', () => {
    const query = parseNavigationQuery({
      type: 'page',
      top_level: true,
      confidence: 0.5,
      name: '',
      colour: 'red',
    });
    expect(query.filters).toEqual({ type: 'page', top_level: 'true', confidence: '0.5' });
  });

  it('leaves top_level out under an element', () => {
    expect(
      parseNavigationQuery({ top_level: 'true', folder: 'true' }, underElement).filters,
    ).toEqual({
      folder: 'true',
    });
  });

  it('adds, replaces and removes one filter per name, back to the first page', () => {
    const onPage3 = withPage(base, 3);
    const typed = withFilter(onPage3, 'type', 'page');
    expect(typed.filters).toEqual({ type: 'page' });
    expect(typed.page).toBe(1);
    expect(withFilter(typed, 'type', 'folder').filters).toEqual({ type: 'folder' });
    expect(withoutFilter(withPage(typed, 4), 'type')).toMatchObject({ filters: {}, page: 1 });
  });

  it('keeps the metadata operator with metadata_value only', () => {
    const query = withFilter(base, 'metadata_value', '10', 'gte');
    expect(toListQuery(query)).toMatchObject({ metadata_value: '10', metadata_operator: 'gte' });
    expect(toNavigationSearch(query)).toMatchObject({ metadata_operator: 'gte' });
    const removed = withoutFilter(query, 'metadata_value');
    expect(removed.metadataOperator).toBe('eq');
    expect(toListQuery(removed)).not.toHaveProperty('metadata_operator');
    expect(
      parseNavigationQuery({ metadata_value: 'x', metadata_operator: 'like' }).metadataOperator,
    ).toBe('eq');
  });

  it('sends every filter, the page, the size and the ordering to the API', () => {
    const query = withPageSize(withFilter(withFilter(base, 'type', 'page'), 'folder', 'false'), 50);
    expect(toListQuery(withPage(query, 2))).toEqual({
      type: 'page',
      folder: 'false',
      page: 2,
      page_size: 50,
      order: 'name',
      order_direction: 'asc',
    });
  });
});

describe('page size changes', () => {
  it('go back to page 1 and refuse other sizes', () => {
    expect(withPageSize(withPage(base, 5), 100)).toMatchObject({ page: 1, pageSize: 100 });
    expect(withPageSize(base, 42).pageSize).toBe(20);
  });
});

describe('serialisation', () => {
  const queries: NavigationQuery[] = [
    base,
    withFilter(withFilter(base, 'top_level', 'true'), 'type', 'volume'),
    withPage(withPageSize(withFilter(base, 'name', '2020'), 500), 7),
    withOrder(withFilter(base, 'metadata_value', '1.50', 'lt'), 'created', 'desc'),
    withOrder(withFilter(base, 'name', 'null'), 'random', 'asc'),
    withFilter(withFilter(base, 'confidence', '0.25'), 'creator_email', 'ada@example.org'),
  ];

  it('leaves defaults out', () => {
    expect(serializeNavigationQuery(withFilter(base, 'folder', 'true'))).toBe('folder=true');
    expect(serializeNavigationQuery(withPage(withFilter(base, 'folder', 'true'), 2))).toBe(
      'folder=true&page=2',
    );
  });

  it('keeps the page of an unfiltered view, so it is never the empty query', () => {
    expect(serializeNavigationQuery(base)).toBe('page=1');
    expect(validateNavigationSearch({ page: 1 })).toEqual({ page: 1 });
  });

  it.each(queries.map((query, index) => [index, query] as const))(
    'round-trips query %i through a query string',
    (_index, query) => {
      expect(parseNavigationQueryString(serializeNavigationQuery(query))).toEqual(query);
    },
  );

  it.each(queries.map((query, index) => [index, query] as const))(
    "round-trips query %i through the router's own search serialiser",
    (_index, query) => {
      const url = defaultStringifySearch(toNavigationSearch(query));
      expect(parseNavigationQuery(defaultParseSearch(url))).toEqual(query);
    },
  );

  it('gives plain addresses through the router', () => {
    const query = withPage(withFilter(withFilter(base, 'top_level', 'true'), 'type', 'page'), 2);
    expect(defaultStringifySearch(toNavigationSearch(query))).toBe(
      '?type=page&top_level=true&page=2',
    );
  });

  it('round-trips under an element with its own default order', () => {
    const query = withOrder(parseNavigationQuery({}, underElement), 'name', 'desc');
    expect(serializeNavigationQuery(query, underElement)).toBe('order=name&order_direction=desc');
    expect(
      parseNavigationQueryString(serializeNavigationQuery(query, underElement), underElement),
    ).toEqual(query);
  });
});

describe('validateNavigationSearch', () => {
  it('stays empty for an empty or unrelated query', () => {
    expect(validateNavigationSearch({})).toEqual({});
    expect(validateNavigationSearch({ utm_source: 'mail' })).toEqual({});
  });

  it('cleans what the URL holds', () => {
    expect(
      validateNavigationSearch({ type: 'page', page: 'x', page_size: 33, order: 'position' }),
    ).toEqual({ type: 'page' });
  });
});

describe('topLevelSearch', () => {
  it('uses the project top-level type, or folders when there is none', () => {
    expect(topLevelSearch('volume')).toEqual({ top_level: true, type: 'volume' });
    expect(topLevelSearch(null)).toEqual({ top_level: true, folder: true });
  });
});
