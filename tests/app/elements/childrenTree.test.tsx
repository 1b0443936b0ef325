// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ViewerFactoryContext } from '@/features/viewer/viewerContext';
import { announceElementChange } from '@/lib/elementChanges';
import type { Element } from '@/api/types';
import {
  apiError,
  elementsApi,
  makeChildren,
  makeCorpus,
  makeElement,
  makeImage,
  makeUser,
  renderApp,
  type Call,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { fakeViewerFactory } from '../support/fakeViewer';
import { installRecordingCanvas } from '../support/recordingCanvas';

isolateElementPageTests({ annotationsTree: true });
beforeEach(() => {
  installRecordingCanvas();
});

/** A page whose tree lists `count` lines, the first `withChildren` of them with words. */
function pageWithChildren(count: number, withChildren = 0) {
  const corpus = makeCorpus();
  const page = makeElement(corpus, { name: 'Folio 12', image: makeImage() });
  const lines = makeChildren(corpus, count);
  const children: Record<string, Element[]> = { [page.id]: lines };
  lines.slice(0, withChildren).forEach((line, index) => {
    children[line.id] = makeChildren(corpus, 2, (word) => ({
      name: `Word ${index + 1}.${word + 1}`,
      type: 'word',
    }));
  });
  return { corpus, page, lines, children };
}

function openPage(page: Element) {
  const viewers = fakeViewerFactory();
  return renderApp(`/element/${page.id}`, makeUser(), (ui) => (
    <ViewerFactoryContext.Provider value={viewers.factory}>{ui}</ViewerFactoryContext.Provider>
  ));
}

const tree = () => screen.getByRole('navigation', { name: 'Children tree' });
const shownNames = () =>
  within(tree())
    .queryAllByRole('link')
    .map((link) => link.textContent);
/** The tree's own requests (the viewer's zone list asks for every descendant at once). */
const treeCalls = (calls: Call[], parentId: string) =>
  calls.filter(
    (call) => call.path === `/elements/${parentId}/children/` && !call.query.has('recursive'),
  );

describe('children tree', () => {
  it('lists the first page of children, and more on "Load more" until all are in', async () => {
    const { corpus, page, lines, children } = pageWithChildren(45);
    const api = elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    const user = userEvent.setup();

    await within(await screen.findByRole('navigation', { name: 'Children tree' })).findByText(
      'Line 20',
    );
    expect(shownNames()).toHaveLength(20);
    expect(within(tree()).getByText('20 of 45')).toBeTruthy();
    // Types read as their display names.
    expect(await within(tree()).findAllByText('Text line')).toHaveLength(20);

    await user.click(within(tree()).getByRole('button', { name: 'Load more' }));
    await within(tree()).findByText('Line 40');
    expect(within(tree()).getByText('40 of 45')).toBeTruthy();

    await user.click(within(tree()).getByRole('button', { name: 'Load more' }));
    await within(tree()).findByText('Line 45');
    expect(shownNames()).toEqual(lines.map((line) => line.name));
    await waitFor(() =>
      expect(within(tree()).queryByRole('button', { name: 'Load more' })).toBeNull(),
    );
    expect(within(tree()).queryByRole('button', { name: 'Load all' })).toBeNull();
    expect(treeCalls(api.calls, page.id).map((call) => call.query.get('page'))).toEqual([
      '1',
      '2',
      '3',
      '1',
    ]);
  });

  it('loads everything at once with the unlimited page size on "Load all"', async () => {
    const { corpus, page, lines, children } = pageWithChildren(45);
    const api = elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    await screen.findByText('20 of 45');

    await userEvent.click(within(tree()).getByRole('button', { name: 'Load all' }));
    await within(tree()).findByText('Line 45');
    expect(shownNames()).toHaveLength(45);
    const loadAll = treeCalls(api.calls, page.id)[1]!;
    expect(loadAll.query.get('page_size')).toBe('1000');
    expect(loadAll.query.get('page')).toBe('1');
  });

  it('after the last page, asks whether the list changed and keeps it on 304', async () => {
    const { corpus, page, lines, children } = pageWithChildren(25);
    const api = elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    await screen.findByText('20 of 25');

    await userEvent.click(within(tree()).getByRole('button', { name: 'Load more' }));
    await within(tree()).findByText('Line 25');
    await waitFor(() => expect(treeCalls(api.calls, page.id)).toHaveLength(3));
    const [first, , conditional] = treeCalls(api.calls, page.id);
    expect(first!.headers['if-modified-since']).toBeUndefined();
    expect(conditional!.query.get('page')).toBe('1');
    expect(conditional!.headers['if-modified-since']).toBe('Sat, 01 Jun 2024 10:00:00 GMT');
    expect(shownNames()).toHaveLength(25);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('starts the list over when it changed while it was paged through', async () => {
    const { corpus, page, lines, children } = pageWithChildren(25);
    const api = elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    await screen.findByText('20 of 25');

    // Someone renames the first line and adds one at the start before page 2 is read.
    lines[0]!.name = 'Line 1 (renamed)';
    children[page.id]!.unshift(makeElement(corpus, { name: 'Line 0', type: 'text_line' }));
    api.touch(page.id);

    await userEvent.click(within(tree()).getByRole('button', { name: 'Load more' }));
    // Fresh first page: the new line first, the rename visible, the rest to load again.
    await within(tree()).findByText('20 of 26');
    expect(shownNames().slice(0, 2)).toEqual(['Line 0', 'Line 1 (renamed)']);
    expect(shownNames()).toHaveLength(20);
    expect(within(tree()).getByRole('button', { name: 'Load more' })).toBeTruthy();
  });

  it('expands a child node and loads its own children', async () => {
    const { corpus, page, lines, children } = pageWithChildren(3, 1);
    elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);

    const expand = await screen.findByRole('button', { name: 'Expand Line 1' });
    // Lines without children have nothing to expand.
    expect(screen.queryByRole('button', { name: 'Expand Line 2' })).toBeNull();
    expect(screen.queryByText('Word 1.1')).toBeNull();
    await userEvent.click(expand);
    expect(await within(tree()).findByText('Word 1.2')).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'Collapse Line 1' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Collapse Line 1' }));
    expect(within(tree()).queryByText('Word 1.1')).toBeNull();
  });

  it('says which node failed when its children cannot be fetched', async () => {
    const { corpus, page, lines, children } = pageWithChildren(3, 1);
    const failing = lines[0]!;
    elementsApi({
      corpus,
      elements: [page, ...lines],
      children,
      overrides: {
        [`/elements/${failing.id}/children/`]: () => apiError(500, 'Database unavailable'),
      },
    });
    openPage(page);
    await userEvent.click(await screen.findByRole('button', { name: 'Expand Line 1' }));
    const message = `An error occurred fetching children of node "Line 1 - ${failing.id}".`;
    expect(await within(tree()).findByText(message)).toBeTruthy();
    const notification = await screen.findByText(`${message} Database unavailable`);
    expect(notification.closest('[role="alert"]')).toBeTruthy();
  });

  it('says which parent failed when the next page cannot be fetched', async () => {
    const { corpus, page, lines, children } = pageWithChildren(25);
    elementsApi({
      corpus,
      elements: [page, ...lines],
      children,
      overrides: {
        [`/elements/${page.id}/children/`]: (call) =>
          call.query.get('page') === '2' ? apiError(503, 'Try again later') : null,
      },
    });
    openPage(page);
    await screen.findByText('20 of 25');
    await userEvent.click(within(tree()).getByRole('button', { name: 'Load more' }));
    expect(
      await within(tree()).findByText(`Error fetching next elements for parent "${page.id}"`),
    ).toBeTruthy();
    // What was loaded stays, and the user can try again.
    expect(shownNames()).toHaveLength(20);
    expect(within(tree()).getByRole('button', { name: 'Load more' })).toBeTruthy();
  });

  it('loads more with the "m" key', async () => {
    const { corpus, page, lines, children } = pageWithChildren(25);
    elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    await screen.findByText('20 of 25');
    await userEvent.keyboard('m');
    expect(await within(tree()).findByText('Line 25')).toBeTruthy();
  });

  it('hides when the annotations tree is turned off in the Display menu', async () => {
    const { corpus, page, lines, children } = pageWithChildren(3);
    elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    await screen.findByRole('navigation', { name: 'Children tree' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Display' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Hide annotations tree' }));
    await waitFor(() =>
      expect(screen.queryByRole('navigation', { name: 'Children tree' })).toBeNull(),
    );
  });

  it('opens offline with the children seen before, a child node included', async () => {
    const { corpus, page, lines, children } = pageWithChildren(3, 1);
    const api = elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    await userEvent.click(await screen.findByRole('button', { name: 'Expand Line 1' }));
    await within(tree()).findByText('Word 1.2');
    // Each list's first page, then its check that nothing changed meanwhile.
    await waitFor(() => expect(treeCalls(api.calls, lines[0]!.id)).toHaveLength(2));
    await waitFor(() => expect(treeCalls(api.calls, page.id)).toHaveLength(2));
    cleanup();

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    openPage(page);
    await within(await screen.findByRole('navigation', { name: 'Children tree' })).findByText(
      'Line 3',
    );
    expect(shownNames()).toEqual(['Line 1', 'Line 2', 'Line 3']);
    await userEvent.click(screen.getByRole('button', { name: 'Expand Line 1' }));
    expect(await within(tree()).findByText('Word 1.2')).toBeTruthy();
    expect(screen.queryByText(/An error occurred fetching children/)).toBeNull();
  });

  it('starts over when zones are drawn or deleted on the image, and lists them', async () => {
    const { corpus, page, lines, children } = pageWithChildren(2);
    const api = elementsApi({ corpus, elements: [page, ...lines], children });
    openPage(page);
    await within(await screen.findByRole('navigation', { name: 'Children tree' })).findByText(
      'Line 2',
    );
    // The annotation tools drew a third line, which the server has now.
    const drawn = makeElement(corpus, { name: 'Line 3', type: 'text_line' });
    children[page.id]!.push(drawn);
    api.touch(page.id);
    act(() => announceElementChange());
    expect(await within(tree()).findByText('Line 3')).toBeTruthy();
    expect(shownNames()).toEqual(['Line 1', 'Line 2', 'Line 3']);
  });
});
