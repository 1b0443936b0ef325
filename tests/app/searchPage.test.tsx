// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import './shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route as searchRoute } from '@/routes/search/{-$corpusId}';
import type {
  SearchFacetName,
  SearchFacetValue,
  SearchHit,
  SearchParams,
  SearchResponse,
  SearchSource,
} from '@/api/search';
import type { Corpus } from '@/api/types';
import { tokenize } from '@/lib/search/fold';
import { matchesDocument } from '@/lib/search/evaluate';
import { parseSearchQuery } from '@/lib/search/query';
import { connectivity } from '@/offline/runtime';
import { SEARCH_HELP } from '@/features/search/SearchHelpModal';
import {
  apiError,
  corpusWith,
  idSequence,
  isolateEachTest,
  json,
  makeInfo,
  makeRoot,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
  type Call,
} from './support/harness';

const device = vi.hoisted(() => ({
  searchOnDevice: vi.fn<(corpusId: string, params: SearchParams) => Promise<SearchResponse>>(),
}));
vi.mock('@/offline/search/client', () => device);

configure({ asyncUtilTimeout: 5_000 });
isolateEachTest();

const uuid = idSequence('5ea0');
const me = userWith(uuid());
const TYPES = [
  { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: '#000' },
  { id: uuid(), slug: 'text_line', display_name: 'Text line', folder: false, color: '#000' },
];

function makeCorpus(name: string, indexable = true): Corpus {
  return corpusWith({ id: uuid(), name, public: false, rights: ['read'], types: TYPES, indexable });
}

const registers = makeCorpus('Registers');
const letters = makeCorpus('Letters');
const hidden = makeCorpus('Not indexed', false);

interface Doc {
  source: SearchSource;
  text: string;
  type: string;
  name: string;
  page: string;
}

function hitOf(doc: Doc, index: number): SearchHit {
  const id = `00000000-0000-4000-aaaa-${String(index + 1).padStart(12, '0')}`;
  const pageId = `00000000-0000-4000-bbbb-${doc.page.padStart(12, '0')}`;
  const onPage = doc.type !== 'page';
  return {
    id: `${doc.source}:${id}`,
    source: doc.source,
    element_id: onPage ? id : pageId,
    element_type: doc.type,
    element_text: doc.name,
    element_image: null,
    element_polygon: null,
    page_id: pageId,
    page_name: `Folio ${doc.page}`,
    parent_id: onPage ? pageId : null,
    parent_type: onPage ? 'page' : null,
    parent_name: onPage ? `Folio ${doc.page}` : null,
    worker_run_id: null,
    transcription_id: doc.source === 'transcription' ? id : null,
    transcription_text: doc.source === 'transcription' ? doc.text : null,
    transcription_confidence: doc.source === 'transcription' ? 0.87 : null,
    classification_id: null,
    classification_name: null,
    classification_confidence: null,
    metadata_id: doc.source === 'metadata' ? id : null,
    metadata_type: doc.source === 'metadata' ? 'text' : null,
    metadata_name: doc.source === 'metadata' ? 'Place' : null,
    metadata_text: doc.source === 'metadata' ? doc.text : null,
    transcription_entity_id: null,
    transcription_entity_text: null,
    transcription_entity_type: null,
  };
}

const DOCS: Doc[] = [
  {
    source: 'transcription',
    text: 'Louis roi de France à Paris',
    type: 'text_line',
    name: 'Line 1',
    page: '1',
  },
  { source: 'transcription', text: 'Le ſaint Louis', type: 'text_line', name: 'Line 2', page: '1' },
  { source: 'metadata', text: 'Paris', type: 'page', name: 'Folio 2', page: '2' },
  { source: 'element', text: 'Folio 3', type: 'page', name: 'Folio 3', page: '3' },
];

const FACET_NAMES: SearchFacetName[] = [
  'element_type',
  'worker_run',
  'classification_name',
  'metadata_name',
  'entity_type',
];

/** The search endpoint as the contract says: sources, query syntax, facets, pages of 20. */
function answerSearch(call: Call, docs: Doc[]): Response {
  const parsed = parseSearchQuery(call.query.get('query') ?? '');
  if (!parsed.ok) return apiError(400, [{ attr: 'query', detail: parsed.error }]);
  const sources = (call.query.get('sources') ?? '').split(',').filter(Boolean);
  const types = call.query.getAll('element_type');
  const matching = docs
    .map((doc, index) => ({ doc, hit: hitOf(doc, index) }))
    .filter(({ doc }) => sources.length === 0 || sources.includes(doc.source))
    .filter(({ doc }) => matchesDocument(parsed.tree, tokenize(doc.text)))
    .filter(({ doc }) => types.length === 0 || types.includes(doc.type));
  const counts = new Map<string, number>();
  for (const { doc } of matching) counts.set(doc.type, (counts.get(doc.type) ?? 0) + 1);
  const facets = Object.fromEntries(FACET_NAMES.map((name) => [name, []])) as unknown as Record<
    SearchFacetName,
    SearchFacetValue[]
  >;
  facets.element_type = [...counts].map(([value, count]) => ({
    value,
    label: TYPES.find((type) => type.slug === value)!.display_name,
    count,
  }));
  const page = Number(call.query.get('page') ?? 1);
  return json(200, {
    count: matching.length,
    number: page,
    next: null,
    previous: null,
    results: matching.slice((page - 1) * 20, page * 20).map(({ hit }) => hit),
    facets,
  });
}

function fakeServer(docs: Doc[] = DOCS, search?: (call: Call) => Response) {
  return stubFetch((call) => {
    if (call.path === '/corpus/') return json(200, [registers, letters, hidden]);
    for (const corpus of [registers, letters, hidden]) {
      if (call.path === `/corpus/${corpus.id}/`) return json(200, corpus);
      if (call.path === `/corpus/${corpus.id}/search/`)
        return search ? search(call) : answerSearch(call, docs);
    }
    return apiError(404, [{ attr: null, detail: 'Not found.' }]);
  });
}

const root = makeRoot();
const tree = routesUnder(root, [
  searchRoute.update({
    id: '/search/{-$corpusId}',
    path: '/search/{-$corpusId}',
    getParentRoute: () => root,
  } as never),
] as never);

function renderSearch(url: string) {
  return renderRoutes(tree as never, { url, info: makeInfo({ search: true }), user: me });
}

const searchesOf = (calls: Call[]) => calls.filter((call) => call.path.endsWith('/search/'));

describe('the search page', () => {
  it('picks a project among the indexable ones and searches what is typed, words marked', async () => {
    const server = fakeServer();
    const { router } = renderSearch('/search');
    const user = userEvent.setup();

    const picker = await screen.findByRole('combobox', { name: 'Project' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3));
    expect(within(picker).queryByRole('option', { name: 'Not indexed' })).toBeNull();
    expect(screen.getByText(/Choose a project to search/)).toBeTruthy();

    await user.selectOptions(picker, 'Registers');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/search/${registers.id}`));
    expect(searchesOf(server.calls)).toHaveLength(0);

    await user.type(screen.getByRole('searchbox', { name: 'Query' }), 'louis');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    const results = await screen.findByRole('list', { name: 'Search results' });
    const hits = within(results).getAllByRole('listitem');
    expect(hits).toHaveLength(2);
    // Case and the long s folded: "Louis" and "ſaint Louis" both found, the typed word marked.
    expect(hits[0]!.querySelector('mark')!.textContent).toBe('Louis');
    expect(hits[1]!.querySelector('mark')!.textContent).toBe('Louis');
    expect(within(hits[0]!).getByText('Text line')).toBeTruthy();
    expect(within(hits[0]!).getByText('Folio 1')).toBeTruthy();
    expect(within(hits[0]!).getByText('Confidence 0.87')).toBeTruthy();
    const link = within(hits[0]!).getByRole('link', { name: 'Line 1' });
    expect(link.getAttribute('href')).toBe(
      `/element/00000000-0000-4000-bbbb-000000000001?highlight=00000000-0000-4000-aaaa-000000000001`,
    );
    expect(screen.getByText('Items 1 to 2 out of 2 results')).toBeTruthy();
    const request = searchesOf(server.calls).at(-1)!;
    expect(request.path).toBe(`/corpus/${registers.id}/search/`);
    expect(request.query.get('query')).toBe('louis');
    expect(request.query.get('sort')).toBe('relevance');
    expect(request.query.get('page')).toBe('1');
    expect(router.state.location.search).toEqual({ query: 'louis' });
  });

  it('marks each word of a phrase and a prefix, and opens a page hit without a highlight', async () => {
    fakeServer();
    renderSearch(`/search/${registers.id}?query=${encodeURIComponent('"roi de" OR par*')}`);
    const results = await screen.findByRole('list', { name: 'Search results' });
    const hits = within(results).getAllByRole('listitem');
    expect(hits).toHaveLength(2);
    const marks = (item: HTMLElement) =>
      [...item.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks(hits[0]!)).toEqual(['roi', 'de', 'Paris']);
    expect(marks(hits[1]!)).toEqual(['Paris']);
    expect(within(hits[1]!).getByText('Metadata Place')).toBeTruthy();
    expect(within(hits[1]!).getByRole('link', { name: 'Folio 2' }).getAttribute('href')).toBe(
      '/element/00000000-0000-4000-bbbb-000000000002',
    );
  });

  it('names the page a line is on when its parent is a region of that page', async () => {
    const line = hitOf(DOCS[0]!, 0);
    const regionId = uuid();
    fakeServer(DOCS, () =>
      json(200, {
        count: 1,
        number: 1,
        next: null,
        previous: null,
        results: [
          { ...line, parent_id: regionId, parent_type: 'page', parent_name: 'Paragraph 1' },
        ],
        facets: Object.fromEntries(FACET_NAMES.map((name) => [name, []])),
      }),
    );
    renderSearch(`/search/${registers.id}?query=louis`);
    const results = await screen.findByRole('list', { name: 'Search results' });
    const hit = within(results).getByRole('listitem');
    expect(hit.textContent).toContain('Line 1 in Page Paragraph 1 on Folio 1');
  });

  it('names a page once when it is the parent of the line', async () => {
    fakeServer();
    renderSearch(`/search/${registers.id}?query=louis`);
    const results = await screen.findByRole('list', { name: 'Search results' });
    const first = within(results).getAllByRole('listitem')[0]!;
    expect(first.textContent).toContain('Line 1 in Page Folio 1');
    expect(first.textContent).not.toContain(' on Folio');
  });

  it('cuts a long matched text at 100 characters, keeping the matched word in view', async () => {
    const long = `${'mot '.repeat(40)}Louis ${'fin '.repeat(20)}`.trim();
    fakeServer([
      { source: 'transcription', text: long, type: 'text_line', name: 'Long', page: '1' },
    ]);
    renderSearch(`/search/${registers.id}?query=louis`);
    const text = await screen.findByTestId('search-hit-text');
    const shown = [...text.childNodes]
      .slice(1)
      .map((node) => node.textContent)
      .join('');
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBe(102);
    expect(text.querySelector('mark')!.textContent).toBe('Louis');
  });

  it('keeps the whole search in the address, and a reload gives it back', async () => {
    const server = fakeServer();
    const { router, unmount } = renderSearch(`/search/${registers.id}?query=paris`);
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Search results' });

    await user.click(screen.getByRole('checkbox', { name: 'Elements' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'Element name');
    await waitFor(() =>
      expect(router.state.location.search).toEqual({
        query: 'paris',
        sources: 'transcription,metadata,transcription_entity,classification',
        sort: 'element_name',
      }),
    );
    await user.click(await screen.findByRole('checkbox', { name: /Page/ }));
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({ element_type: 'page' }),
    );
    const href = router.state.location.href;
    const last = searchesOf(server.calls).at(-1)!;
    expect(last.query.get('sources')).toBe(
      'transcription,metadata,transcription_entity,classification',
    );
    expect(last.query.get('sort')).toBe('element_name');
    expect(last.query.getAll('element_type')).toEqual(['page']);
    unmount();

    renderSearch(href);
    expect(await screen.findByRole('searchbox', { name: 'Query' })).toHaveProperty(
      'value',
      'paris',
    );
    expect(screen.getByRole('checkbox', { name: 'Elements' })).toHaveProperty('checked', false);
    expect(screen.getByRole('checkbox', { name: 'Metadata' })).toHaveProperty('checked', true);
    expect(screen.getByRole('combobox', { name: 'Sort' })).toHaveProperty('value', 'element_name');
    expect(await screen.findByRole('checkbox', { name: /Page/ })).toHaveProperty('checked', true);
    const again = searchesOf(server.calls).at(-1)!;
    expect(again.query.toString()).toBe(last.query.toString());
  });

  it('filters by a facet value when ticked, and no longer when ticked again', async () => {
    const server = fakeServer();
    const { router } = renderSearch(
      `/search/${registers.id}?query=${encodeURIComponent('louis paris')}`,
    );
    const user = userEvent.setup();
    const facets = within(await screen.findByRole('complementary', { name: 'Facets' }));
    expect(await screen.findByText('Items 1 to 3 out of 3 results')).toBeTruthy();
    const line = facets.getByRole('checkbox', { name: /Text line/ });
    expect(line.closest('label')!.textContent).toBe('Text line2');
    expect(facets.getByRole('checkbox', { name: /Page/ }).closest('label')!.textContent).toBe(
      'Page1',
    );

    await user.click(line);
    expect(await screen.findByText('Items 1 to 2 out of 2 results')).toBeTruthy();
    expect(facets.getByRole('checkbox', { name: /Text line/ })).toHaveProperty('checked', true);
    expect(searchesOf(server.calls).at(-1)!.query.getAll('element_type')).toEqual(['text_line']);
    expect(router.state.location.search).toMatchObject({ element_type: 'text_line' });

    await user.click(facets.getByRole('checkbox', { name: /Text line/ }));
    expect(await screen.findByText('Items 1 to 3 out of 3 results')).toBeTruthy();
    expect(searchesOf(server.calls).at(-1)!.query.getAll('element_type')).toEqual([]);
    expect(router.state.location.search).not.toHaveProperty('element_type');
  });

  it('pages through results 20 at a time, the page in the address', async () => {
    const many: Doc[] = Array.from({ length: 25 }, (_, index) => ({
      source: 'transcription',
      text: `Louis ${index + 1}`,
      type: 'text_line',
      name: `Line ${index + 1}`,
      page: '1',
    }));
    const server = fakeServer(many);
    const { router } = renderSearch(`/search/${registers.id}?query=louis`);
    const user = userEvent.setup();
    // A bar above the results and one below.
    expect(await screen.findAllByText('Items 1 to 20 out of 25 results')).toHaveLength(2);
    expect(
      within(screen.getByRole('list', { name: 'Search results' })).getAllByRole('listitem'),
    ).toHaveLength(20);

    await user.click(screen.getAllByRole('button', { name: 'Next page' })[0]!);
    expect(await screen.findAllByText('Items 21 to 25 out of 25 results')).toHaveLength(2);
    expect(
      within(screen.getByRole('list', { name: 'Search results' })).getAllByRole('listitem'),
    ).toHaveLength(5);
    expect(searchesOf(server.calls).at(-1)!.query.get('page')).toBe('2');
    expect(router.state.location.search).toEqual({ query: 'louis', page: 2 });

    // Another search starts again from its first page.
    await user.click(screen.getByRole('checkbox', { name: 'Metadata' }));
    await waitFor(() => expect(searchesOf(server.calls).at(-1)!.query.get('page')).toBe('1'));
    expect(router.state.location.search).not.toHaveProperty('page');
  });

  it('asks for a source and sends nothing without one', async () => {
    const server = fakeServer();
    renderSearch(`/search/${registers.id}?query=louis&sources=transcription`);
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Search results' });
    const before = searchesOf(server.calls).length;

    await user.click(screen.getByRole('checkbox', { name: 'Transcriptions' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please select at least one source.',
    );
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
    expect(searchesOf(server.calls)).toHaveLength(before);
  });

  it("says 'No results.' when nothing matches", async () => {
    fakeServer();
    renderSearch(`/search/${registers.id}?query=versailles`);
    expect(await screen.findByText('No results.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
  });

  it('shows a query the parser refuses under the box before any request, and a 400 detail', async () => {
    const server = fakeServer(DOCS, () =>
      apiError(400, [{ attr: 'query', detail: 'The server refused this query.' }]),
    );
    renderSearch(`/search/${registers.id}?query=${encodeURIComponent('"louis')}`);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The query has a quote that is not closed.',
    );
    expect(searchesOf(server.calls)).toHaveLength(0);
    // Said under the box, which it describes.
    const box = screen.getByRole('searchbox', { name: 'Query' });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toBe(
      'The query has a quote that is not closed.',
    );
    expect(box.closest('form')!.contains(screen.getByRole('alert'))).toBe(true);

    const user = userEvent.setup();
    await user.clear(box);
    await user.type(box, 'louis{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('The server refused this query.'),
    );
    expect(box.closest('form')!.contains(screen.getByRole('alert'))).toBe(true);
    expect(searchesOf(server.calls)).toHaveLength(1);
  });

  it('says a project is not indexable, without searching it', async () => {
    const server = fakeServer();
    renderSearch(`/search/${hidden.id}?query=louis`);
    expect((await screen.findByRole('alert')).textContent).toBe('This project is not indexable.');
    expect(screen.getByRole('combobox', { name: 'Project' })).toHaveProperty('value', hidden.id);
    expect(searchesOf(server.calls)).toHaveLength(0);
  });

  it("searches the device offline, and says the results are the device's", async () => {
    const server = fakeServer();
    const hit = hitOf(DOCS[0]!, 0);
    device.searchOnDevice.mockResolvedValue({
      count: 1,
      number: 1,
      next: null,
      previous: null,
      results: [hit],
      facets: {
        element_type: [],
        worker_run: [],
        classification_name: [],
        metadata_name: [],
        entity_type: [],
      },
    });
    renderSearch(`/search/${registers.id}`);
    await screen.findByRole('searchbox', { name: 'Query' });
    connectivity.store.set({ online: false, checkedAt: Date.now() });
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Query' }), 'roi{Enter}');

    expect(
      await screen.findByText(
        'These results come from this device: what was taken offline or opened before.',
      ),
    ).toBeTruthy();
    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(results.querySelector('mark')!.textContent).toBe('roi');
    expect(device.searchOnDevice).toHaveBeenCalledWith(
      registers.id,
      expect.objectContaining({ query: 'roi', page: 1 }),
    );
    expect(searchesOf(server.calls)).toHaveLength(0);
  });

  it('falls back to the device when the server cannot be reached', async () => {
    device.searchOnDevice.mockResolvedValue({
      count: 0,
      number: 1,
      next: null,
      previous: null,
      results: [],
      facets: {
        element_type: [],
        worker_run: [],
        classification_name: [],
        metadata_name: [],
        entity_type: [],
      },
    });
    fakeServer(DOCS, () => {
      throw new TypeError('Failed to fetch');
    });
    renderSearch(`/search/${registers.id}?query=roi`);
    expect(
      await screen.findByText(
        'These results come from this device: what was taken offline or opened before.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('No results.')).toBeTruthy();
  });

  it("lets a project's administrators rebuild its index, and searches again once it is done", async () => {
    const owned = corpusWith({
      id: uuid(),
      name: 'Owned',
      public: false,
      rights: ['read', 'write', 'admin'],
      types: TYPES,
      indexable: true,
    });
    const job = {
      id: uuid(),
      description: 'Reindexing project Owned',
      status: 'queued',
      progress: null,
      enqueued_at: '2024-05-01T10:00:00Z',
      started_at: null,
      ended_at: null,
    };
    const server = stubFetch((call) => {
      if (call.path === '/corpus/') return json(200, [owned]);
      if (call.path === `/corpus/${owned.id}/`) return json(200, owned);
      if (call.path === `/corpus/${owned.id}/search/`) return answerSearch(call, DOCS);
      if (call.method === 'POST' && call.path === `/corpus/${owned.id}/index/`)
        return json(202, job);
      if (call.path === '/jobs/') return json(200, [{ ...job, status: 'processed' }]);
      if (call.path === `/jobs/${job.id}/`) return json(200, { ...job, status: 'processed' });
      return apiError(404, [{ attr: null, detail: 'Not found.' }]);
    });
    renderSearch(`/search/${owned.id}?query=louis`);
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Search results' });
    const searched = searchesOf(server.calls).length;

    await user.click(screen.getByRole('button', { name: 'Rebuild the index' }));
    expect(
      await screen.findByText('Rebuilding the search index of Owned has been scheduled.'),
    ).toBeTruthy();
    expect(server.callsTo('POST', `/corpus/${owned.id}/index/`)).toHaveLength(1);
    await waitFor(() => expect(searchesOf(server.calls).length).toBeGreaterThan(searched));
  });

  it('offers no index rebuild to readers', async () => {
    fakeServer();
    renderSearch(`/search/${registers.id}?query=louis`);
    await screen.findByRole('list', { name: 'Search results' });
    expect(screen.queryByRole('button', { name: 'Rebuild the index' })).toBeNull();
  });

  it('answers Page not found for a project that is not a UUID or that the server does not show', async () => {
    const server = fakeServer();
    const { unmount } = renderSearch('/search/letters?query=louis');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    unmount();

    renderSearch(`/search/${uuid()}?query=louis`);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(await screen.findByText('Project is not found.')).toBeTruthy();
    expect(searchesOf(server.calls)).toHaveLength(0);
  });

  it('opens the search help with one line per rule and an example of each', async () => {
    fakeServer();
    renderSearch('/search');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Search help' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Search help' }));
    for (const { rule, example } of SEARCH_HELP) {
      expect(dialog.getByText(rule)).toBeTruthy();
      expect(dialog.getByText(example)).toBeTruthy();
    }
    expect(SEARCH_HELP.map(({ rule }) => rule.toLowerCase()).join(' ')).toContain(
      'hyphenated words count as two words',
    );
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
