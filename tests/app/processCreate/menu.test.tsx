// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoute } from '@tanstack/react-router';
import type { Corpus } from '@/api/types';
import { CreateProcessButton } from '@/features/processes/create/CreateProcessButton';
import {
  apiError as structuredError,
  makeInfo,
  makeRoot,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
} from '../support/harness';
import { elementsApi, json, makeCorpus, makeElement, uuid } from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { menuEntry, openElement } from '../support/elementMenu';

isolateElementPageTests();

type Rights = ('read' | 'write' | 'admin')[];

/** A folder of the project, and the answer POST /process/corpus/ gives. */
function folderOf(rights: Rights, create = () => json(201, { id: processId, mode: 'workers' })) {
  const corpus = makeCorpus({ rights });
  const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const api = elementsApi({
    corpus,
    elements: [folder],
    neighbours: { [folder.id]: [{ path: [], ordering: 0, previous: null, next: null }] },
    overrides: { 'POST /process/corpus/': create },
  });
  return { corpus, folder, api };
}

const processId = '00000000-0000-4000-8000-0000000000aa';

describe("an element's Processes menu", () => {
  it('creates a workers process from the folder for a project admin and opens its filters', async () => {
    const { corpus, folder, api } = folderOf(['read', 'write', 'admin']);
    const user = userEvent.setup();
    openElement(folder.id);
    await user.click(await menuEntry(user, 'Processes', 'Create a process'));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${processId}/filter`,
    );
    const sent = api.calls.filter((call) => call.method === 'POST');
    expect(sent.map((call) => [call.path, call.body])).toEqual([
      ['/process/corpus/', { corpus: corpus.id, element: folder.id, load_children: 'all' }],
    ]);
  });

  it('tells others the admin right is needed', async () => {
    const { folder, api } = folderOf(['read', 'write']);
    const user = userEvent.setup();
    openElement(folder.id);
    const entry = await menuEntry(user, 'Processes', 'Create a process');
    expect(entry.getAttribute('aria-disabled')).toBe('true');
    expect(entry.getAttribute('title')).toBe('You must have an admin access to this project');
    await user.click(entry);
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it("shows the server's refusal in the spec's words", async () => {
    const { folder } = folderOf(['read', 'write', 'admin'], () =>
      structuredError(400, [{ attr: 'element', detail: 'This element is not in the project.' }]),
    );
    const user = userEvent.setup();
    openElement(folder.id);
    await user.click(await menuEntry(user, 'Processes', 'Create a process'));
    expect(
      await screen.findByText(
        'An error occurred creating the process: This element is not in the project.',
      ),
    ).toBeTruthy();
    expect(screen.queryByTestId('elsewhere')).toBeNull();
  });
});

describe("the project page's Create a process", () => {
  function renderButton(corpus: Corpus, { selected = 0, selection = true } = {}) {
    const server = stubFetch((call) => {
      if (call.path === `/corpus/${corpus.id}/`) return json(200, corpus);
      if (call.path === '/elements/selection/') {
        const mine = call.query.get('corpus') === corpus.id ? selected : 0;
        return json(200, { count: mine, number: 1, next: null, previous: null, results: [] });
      }
      if (call.method === 'POST' && call.path === '/process/corpus/') {
        return json(201, { id: processId, mode: 'workers' });
      }
      return json(500, { detail: `Unexpected ${call.method} ${call.path}` });
    });
    const root = makeRoot();
    const page = createRoute({
      getParentRoute: () => root,
      path: '/',
      component: () => <CreateProcessButton corpusId={corpus.id} />,
    });
    renderRoutes(routesUnder(root, [page]), {
      url: '/',
      info: makeInfo({ selection }),
      user: userWith(uuid()),
    });
    return server;
  }

  it('creates a process over the whole project for its admins', async () => {
    const corpus = makeCorpus({ rights: ['read', 'write', 'admin'] });
    const server = renderButton(corpus);
    await userEvent.click(await screen.findByRole('button', { name: 'Create a process' }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${processId}/filter`,
    );
    expect(server.callsTo('POST', '/process/corpus/').map((call) => call.body)).toEqual([
      { corpus: corpus.id, load_children: 'all' },
    ]);
  });

  it("offers the project's selected elements when there are some", async () => {
    const corpus = makeCorpus({ rights: ['read', 'write', 'admin'] });
    const server = renderButton(corpus, { selected: 4 });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create a process from the selection (4)' }),
    );
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${processId}/filter`,
    );
    expect(server.callsTo('POST', '/process/corpus/').map((call) => call.body)).toEqual([
      { corpus: corpus.id, selection: true, load_children: 'none' },
    ]);
  });

  it('offers no selection when nothing of the project is selected', async () => {
    const corpus = makeCorpus({ rights: ['read', 'write', 'admin'] });
    const server = renderButton(corpus, { selected: 0 });
    await screen.findByRole('button', { name: 'Create a process' });
    await waitFor(() => expect(server.callsTo('GET', '/elements/selection/')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /from the selection/ })).toBeNull();
  });

  it('asks nothing of the selection when the feature is off', async () => {
    const corpus = makeCorpus({ rights: ['read', 'write', 'admin'] });
    const server = renderButton(corpus, { selected: 4, selection: false });
    await screen.findByRole('button', { name: 'Create a process' });
    expect(server.callsTo('GET', '/elements/selection/')).toEqual([]);
    expect(screen.queryByRole('button', { name: /from the selection/ })).toBeNull();
  });

  it('is not offered to contributors', async () => {
    const corpus = makeCorpus({ rights: ['read', 'write'] });
    const server = renderButton(corpus);
    await waitFor(() => expect(server.callsTo('GET', `/corpus/${corpus.id}/`)).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Create a process' })).toBeNull();
  });
});
