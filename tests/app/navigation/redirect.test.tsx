// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import {
  apiError,
  fakeServer,
  isolateEachTest,
  makeCorpus,
  makeElement,
  renderNavigation,
  uuid,
} from './harness';

isolateEachTest();

describe('The navigation page with an empty query', () => {
  it("goes to the top-level elements of the project's top-level type", async () => {
    const corpus = makeCorpus({ name: 'Registers', top_level_type: 'volume' });
    const server = fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: [makeElement({ type: 'volume', name: 'Register 1' })] },
    });
    const { router } = renderNavigation(`/browse/${corpus.id}`);

    expect(await screen.findByRole('link', { name: 'Register 1' })).toBeTruthy();
    expect(router.state.location.search).toEqual({ type: 'volume', top_level: true });
    const query = server.lastList()!.query;
    expect(query.get('top_level')).toBe('true');
    expect(query.get('type')).toBe('volume');
    expect(query.has('folder')).toBe(false);
    expect(screen.getByRole('heading', { level: 1, name: 'Registers' })).toBeTruthy();
  });

  it('goes to the top-level folders when the project has no top-level type', async () => {
    const corpus = makeCorpus({ top_level_type: null });
    const server = fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: [makeElement({ type: 'folder', name: 'Box A' })] },
    });
    const { router } = renderNavigation(`/browse/${corpus.id}`);

    expect(await screen.findByRole('link', { name: 'Box A' })).toBeTruthy();
    expect(router.state.location.search).toEqual({ folder: true, top_level: true });
    const query = server.lastList()!.query;
    expect(query.get('top_level')).toBe('true');
    expect(query.get('folder')).toBe('true');
    expect(query.has('type')).toBe(false);
  });

  it('keeps a query that has one', async () => {
    const corpus = makeCorpus({ top_level_type: 'volume' });
    const server = fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: [makeElement({ type: 'page', name: 'Folio 1' })] },
    });
    const { router } = renderNavigation(`/browse/${corpus.id}?type=page`);

    expect(await screen.findByRole('link', { name: 'Folio 1' })).toBeTruthy();
    expect(router.state.location.search).toEqual({ type: 'page' });
    expect(server.lastList()!.query.has('top_level')).toBe(false);
  });

  it('shows an unknown project as an error and the not-found page', async () => {
    const server = fakeServer({ corpora: [] });
    renderNavigation(`/browse/${uuid()}`);

    expect((await screen.findByRole('alert')).textContent).toContain('Project is not found.');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(server.listCalls()).toHaveLength(0);
  });

  it('shows a failed project load as an error and the not-found page', async () => {
    const corpus = makeCorpus();
    fakeServer({ corpora: [corpus] });
    const failing = vi.fn(async () =>
      apiError(500, [{ attr: null, detail: 'The database is unavailable.' }]),
    );
    vi.stubGlobal('fetch', failing);
    renderNavigation(`/browse/${corpus.id}?type=page`);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'The database is unavailable.',
    );
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it('reads an invalid page size, order and page as the defaults', async () => {
    const corpus = makeCorpus();
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: [] } });
    renderNavigation(`/browse/${corpus.id}?type=page&page_size=33&order=position&page=-1`);

    expect(await screen.findByText('No elements to display.')).toBeTruthy();
    const query = server.lastList()!.query;
    expect(query.get('page_size')).toBe('20');
    expect(query.get('order')).toBe('name');
    expect(query.get('page')).toBe('1');
    expect((screen.getByRole('combobox', { name: 'Page size' }) as HTMLSelectElement).value).toBe(
      '20',
    );
    expect((screen.getByRole('combobox', { name: 'Order by' }) as HTMLSelectElement).value).toBe(
      'name',
    );
  });
});
