// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setDisplaySetting } from '@/features/elements/displaySettings';
import { ViewerFactoryContext } from '@/features/viewer/viewerContext';
import type { Element, Neighbors } from '@/api/types';
import {
  apiError,
  elementsApi,
  makeChildren,
  makeCorpus,
  makeElement,
  makeImage,
  makeUser,
  ref,
  renderApp,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { fakeViewerFactory } from '../support/fakeViewer';
import { installRecordingCanvas } from '../support/recordingCanvas';

isolateElementPageTests();
beforeEach(() => {
  installRecordingCanvas();
});

function open(url: string, user = makeUser()) {
  const viewers = fakeViewerFactory();
  return renderApp(url, user, (ui) => (
    <ViewerFactoryContext.Provider value={viewers.factory}>{ui}</ViewerFactoryContext.Provider>
  ));
}

/** A register with two volumes; the page sits in both, third of five in the first. */
function registerPages() {
  const corpus = makeCorpus({ name: 'Registers' });
  const volume = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const other = makeElement(corpus, { name: 'Extracts', type: 'folder' });
  const image = makeImage();
  const pages = Array.from({ length: 5 }, (_, i) =>
    makeElement(corpus, { name: `Folio ${i + 1}`, image }),
  );
  const page = pages[2]!;
  const neighbours: Record<string, Neighbors[]> = {
    [page.id]: [
      { path: [ref(volume)], ordering: 2, previous: ref(pages[1]!), next: ref(pages[3]!) },
      { path: [ref(other)], ordering: 0, previous: null, next: ref(pages[4]!) },
    ],
  };
  return { corpus, volume, other, pages, page, neighbours };
}

describe('element page', () => {
  it('reads "Loading…" until the element arrives, then shows its name and type', async () => {
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    elementsApi({
      corpus,
      elements: [act],
      overrides: { [`/element/${act.id}/`]: async () => (await arrived, null) },
    });
    open(`/element/${act.id}`);
    expect(await screen.findByText('Loading…')).toBeTruthy();
    release();
    expect(await screen.findByRole('heading', { name: 'Act of sale' })).toBeTruthy();
    expect(await screen.findByText('Act')).toBeTruthy();
  });

  it('shows a red notification when the element cannot be loaded', async () => {
    const corpus = makeCorpus();
    const missing = makeElement(corpus);
    elementsApi({ corpus, elements: [] });
    open(`/element/${missing.id}`);
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.some((alert) => alert.textContent?.includes('Not found.'))).toBe(true);
  });

  it('copies the ID and says so', async () => {
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    elementsApi({ corpus, elements: [act] });
    const user = userEvent.setup();
    open(`/element/${act.id}`);
    await user.click(await screen.findByRole('button', { name: `Copy ID ${act.id.slice(0, 8)}` }));
    expect(await screen.findByText('ID copied to clipboard')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(act.id);
  });

  it('shows one breadcrumb per parent path with its previous and next elements', async () => {
    const { corpus, volume, other, pages, page, neighbours } = registerPages();
    elementsApi({ corpus, elements: [volume, other, ...pages], neighbours });
    open(`/element/${page.id}`);

    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    await waitFor(() =>
      expect(
        within(crumbs)
          .getAllByRole('list')
          .map((path) => path.textContent),
      ).toEqual(['Registers/Volume 1/Folio 3', 'Registers/Extracts/Folio 3']),
    );
    const paths = within(crumbs).getAllByRole('list');
    expect(within(paths[0]!).getByRole('link', { name: 'Volume 1' }).getAttribute('href')).toBe(
      `/element/${volume.id}`,
    );
    expect(within(paths[0]!).getByRole('link', { name: 'Registers' }).getAttribute('href')).toBe(
      `/browse/${corpus.id}`,
    );
    const previous = within(crumbs).getByRole('link', { name: 'Previous: Folio 2' });
    expect(previous.getAttribute('href')).toBe(`/element/${pages[1]!.id}?from=${volume.id}`);
    const nexts = within(crumbs).getAllByRole('link', { name: /^Next:/ });
    expect(nexts.map((link) => link.getAttribute('href'))).toEqual([
      `/element/${pages[3]!.id}?from=${volume.id}`,
      `/element/${pages[4]!.id}?from=${other.id}`,
    ]);
  });

  it('moves to the previous and next neighbour with Ctrl+← and Ctrl+→', async () => {
    const { corpus, volume, other, pages, page, neighbours } = registerPages();
    elementsApi({ corpus, elements: [volume, other, ...pages], neighbours });
    const { router } = open(`/element/${page.id}`);
    await screen.findByRole('link', { name: 'Previous: Folio 2' });

    fireEvent.keyDown(window, { key: 'ArrowLeft', ctrlKey: true });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/element/${pages[1]!.id}`));
    expect(router.state.location.search).toEqual({ from: volume.id });
    expect(await screen.findByRole('heading', { name: 'Folio 2' })).toBeTruthy();
  });

  it('follows the path the user came along', async () => {
    const { corpus, volume, other, pages, page, neighbours } = registerPages();
    elementsApi({ corpus, elements: [volume, other, ...pages], neighbours });
    const { router } = open(`/element/${page.id}?from=${other.id}`);
    await screen.findByRole('link', { name: 'Previous: Folio 2' });

    // No previous element in "Extracts": Ctrl+← stays.
    fireEvent.keyDown(window, { key: 'ArrowLeft', ctrlKey: true });
    fireEvent.keyDown(window, { key: 'ArrowRight', ctrlKey: true });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/element/${pages[4]!.id}`));
    expect(router.state.location.search).toEqual({ from: other.id });
  });

  it('leaves arrows alone without Ctrl and while typing', async () => {
    const { corpus, volume, other, pages, page, neighbours } = registerPages();
    elementsApi({ corpus, elements: [volume, other, ...pages], neighbours });
    const { router } = open(`/element/${page.id}`);
    await screen.findByRole('link', { name: 'Previous: Folio 2' });
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    const field = document.body.appendChild(document.createElement('input'));
    fireEvent.keyDown(field, { key: 'ArrowLeft', ctrlKey: true });
    field.remove();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(router.state.location.pathname).toBe(`/element/${page.id}`);
  });

  it("reads 'No zones for this element' for an element without image nor displayable children", async () => {
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    const notes = makeChildren(corpus, 2, () => ({ type: 'act' }));
    elementsApi({ corpus, elements: [act, ...notes], children: { [act.id]: notes } });
    open(`/element/${act.id}`);
    expect(await screen.findByText('No zones for this element')).toBeTruthy();
  });

  it('shows the children that have an image zone for an element without image', async () => {
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    const image = makeImage();
    const parts: Element[] = [
      makeElement(corpus, { name: 'Part on folio 3', type: 'text_region', image }),
      makeElement(corpus, { name: 'Marginal note', type: 'act' }),
      makeElement(corpus, { name: 'Part on folio 4', type: 'text_region', image }),
    ];
    elementsApi({ corpus, elements: [act, ...parts], children: { [act.id]: parts } });
    open(`/element/${act.id}`);
    const list = await screen.findByRole('list', { name: 'Child elements' });
    const cards = within(list).getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Part on folio 3',
      'Part on folio 4',
    ]);
    expect(screen.queryByText('No zones for this element')).toBeNull();
  });

  it('lists a folder as cards, page by page', async () => {
    const corpus = makeCorpus();
    const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
    const pages = makeChildren(corpus, 25, (i) => ({ name: `Folio ${i + 1}`, type: 'page' }));
    elementsApi({ corpus, elements: [folder, ...pages], children: { [folder.id]: pages } });
    open(`/element/${folder.id}`);
    const list = await screen.findByRole('list', { name: 'Child elements' });
    expect(within(list).getAllByRole('article')).toHaveLength(20);
    expect(screen.getByText('Items 1 to 20 out of 25 elements')).toBeTruthy();
    // Pages are links: a page of a folder opens in a new tab too.
    await userEvent.click(screen.getByRole('link', { name: 'Go to page 2' }));
    expect(await screen.findByRole('link', { name: 'Folio 25' })).toBeTruthy();
    expect(screen.getByText('Items 21 to 25 out of 25 elements')).toBeTruthy();
    // A folder has no image viewer.
    expect(screen.queryByRole('link', { name: 'View source image' })).toBeNull();
  });

  it('reads "No elements to display." for an empty folder', async () => {
    const corpus = makeCorpus();
    const folder = makeElement(corpus, { name: 'Empty box', type: 'folder' });
    elementsApi({ corpus, elements: [folder] });
    open(`/element/${folder.id}`);
    expect(await screen.findByText('No elements to display.')).toBeTruthy();
  });

  it('shows the folder tree when turned on, and reports a failed folder list', async () => {
    setDisplaySetting('folderTree', true);
    const corpus = makeCorpus();
    const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
    elementsApi({
      corpus,
      elements: [folder],
      overrides: {
        [`/elements/${folder.id}/children/`]: () => apiError(500, 'Database unavailable'),
      },
    });
    open(`/element/${folder.id}`);
    const tree = await screen.findByRole('navigation', { name: 'Children tree' });
    expect(
      await within(tree).findByText(
        `An error occurred fetching children of node "Volume 1 - ${folder.id}".`,
      ),
    ).toBeTruthy();
    expect(await screen.findByText('An error occurred while listing elements')).toBeTruthy();
  });
});

describe('element navigation header menu', () => {
  it('has the five sections, with what a contributor may not do disabled and explained', async () => {
    const corpus = makeCorpus({ rights: ['read', 'write'] });
    const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
    elementsApi({ corpus, elements: [folder] });
    const user = userEvent.setup();
    open(`/element/${folder.id}`);

    const nav = await screen.findByRole('navigation', { name: 'Element navigation' });
    expect(
      within(nav)
        .getAllByRole('button')
        .map((button) => button.textContent?.replace('▾', '')),
    ).toEqual(['Project', 'Elements', 'Import/Export', 'Processes', 'Display']);

    await user.click(within(nav).getByRole('button', { name: 'Project' }));
    expect(
      (await screen.findByRole('menuitem', { name: 'Browse project' })).getAttribute('href'),
    ).toBe(`/browse/${corpus.id}`);
    // Contributors do not administer the project.
    const settings = screen.getByRole('menuitem', { name: 'Project settings' });
    expect(settings.getAttribute('aria-disabled')).toBe('true');
    expect(settings.getAttribute('title')).toBe('You must have an admin access to this project');
    await user.keyboard('{Escape}');

    await user.click(within(nav).getByRole('button', { name: 'Elements' }));
    await waitFor(() =>
      expect(
        screen.getByRole('menuitem', { name: 'Edit element' }).getAttribute('aria-disabled'),
      ).toBeNull(),
    );
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Edit element',
      'New folder',
      'Create sub-element',
      'Move element',
      'Link to another parent',
      'Delete element',
      'Add to dataset',
      'Populate a dataset',
    ]);
    // Deleting needs an admin right.
    const remove = screen.getByRole('menuitem', { name: 'Delete element' });
    expect(remove.getAttribute('aria-disabled')).toBe('true');
    expect(remove.getAttribute('title')).toBe('You must have an admin access to this project');
    await user.keyboard('{Escape}');

    await user.click(within(nav).getByRole('button', { name: 'Import/Export' }));
    expect(
      (await screen.findByRole('menuitem', { name: 'Import files' })).getAttribute('href'),
    ).toBe(`/process/files/${corpus.id}/${folder.id}`);
    // Anyone who reads the project sees its exports; an export process is for its admins.
    const exports = screen.getByRole('menuitem', { name: 'Project exports' });
    expect(exports.getAttribute('aria-disabled')).toBeNull();
    const toFile = screen.getByRole('menuitem', { name: 'Export to a file' });
    expect(toFile.getAttribute('aria-disabled')).toBe('true');
    expect(toFile.getAttribute('title')).toBe('You must have an admin access to this project');
  });

  it('links imports into the project, not into an element that is no folder', async () => {
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    elementsApi({ corpus, elements: [act] });
    const user = userEvent.setup();
    open(`/element/${act.id}`);
    await user.click(await screen.findByRole('button', { name: 'Import/Export' }));
    await waitFor(() =>
      expect(screen.getByRole('menuitem', { name: 'Import files' }).getAttribute('href')).toBe(
        `/process/files/${corpus.id}`,
      ),
    );
  });

  it('keeps imports from users without a verified e-mail', async () => {
    const corpus = makeCorpus();
    const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
    elementsApi({ corpus, elements: [folder] });
    const user = userEvent.setup();
    open(`/element/${folder.id}`, makeUser({ verified_email: false }));
    await user.click(await screen.findByRole('button', { name: 'Import/Export' }));
    const item = await screen.findByRole('menuitem', { name: 'Import files' });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(item.getAttribute('title')).toBe('Your email address should be verified');
  });
});
