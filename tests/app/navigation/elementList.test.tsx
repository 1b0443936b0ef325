// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ElementListItem } from '@/api/types';
import {
  fakeServer,
  isolateEachTest,
  makeCorpus,
  makeElement,
  makeUser,
  onImage,
  renderNavigation,
} from './harness';

isolateEachTest();

const corpus = makeCorpus({ top_level_type: 'volume' });

function pages(count: number): ElementListItem[] {
  return Array.from({ length: count }, (_, index) =>
    makeElement({ type: 'page', name: `Folio ${String(index + 1).padStart(3, '0')}` }),
  );
}

function card(name: string) {
  return screen.getByRole('article', { name });
}

function topBar() {
  return screen.getByRole('navigation', { name: 'Pagination' });
}

/** Waits for the top pagination bar to read `text`. */
async function expectSummary(text: string) {
  await waitFor(() => expect(within(topBar()).getByText(/^Items/).textContent).toBe(text));
}

describe('Element cards', () => {
  it('show a thumbnail, the name linking to the element page and the type name', async () => {
    const folder = makeElement({
      type: 'volume',
      name: 'Register 1',
      thumbnail_url: 'https://s3.example.org/thumbnails/register-1.jpg',
    });
    const page = onImage({ type: 'page', name: 'Folio 1' });
    const line = onImage({ type: 'text_line', name: 'Line 1' }, [
      [100, 200],
      [100, 260],
      [900, 260],
      [900, 200],
      [100, 200],
    ]);
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: [folder, page, line] } });
    renderNavigation(`/browse/${corpus.id}?page=1`);

    const link = await screen.findByRole('link', { name: 'Register 1' });
    expect(link.getAttribute('href')).toBe(`/element/${folder.id}`);
    expect(within(card('Register 1')).getByText('Volume')).toBeTruthy();
    expect(
      within(card('Register 1'))
        .getByRole('img', { name: 'Thumbnail of Register 1' })
        .getAttribute('src'),
    ).toBe('https://s3.example.org/thumbnails/register-1.jpg');

    // A whole page image at the card's height of 200.
    expect(
      within(card('Folio 1'))
        .getByRole('img', { name: 'Thumbnail of Folio 1' })
        .getAttribute('src'),
    ).toBe(`${page.zone!.image.url}/full/,200/0/default.jpg`);
    expect(within(card('Folio 1')).getByText('Page')).toBeTruthy();
    // A zone: the crop of its bounding box, no taller than itself.
    expect(
      within(card('Line 1')).getByRole('img', { name: 'Thumbnail of Line 1' }).getAttribute('src'),
    ).toBe(`${line.zone!.image.url}/100,200,800,60/,60/0/default.jpg`);
    expect(within(card('Line 1')).getByText('Text line')).toBeTruthy();
  });

  it('opens the element page from the card link', async () => {
    const page = onImage({ type: 'page', name: 'Folio 1' });
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: [page] } });
    renderNavigation(`/browse/${corpus.id}?type=page`);

    await userEvent.click(await screen.findByRole('link', { name: 'Folio 1' }));
    expect(
      await screen.findByRole('heading', { name: `Element page /element/${page.id}` }),
    ).toBeTruthy();
  });

  it('show a placeholder without an image, and a message when the image fails', async () => {
    const folder = makeElement({ type: 'folder', name: 'Box A' });
    const page = onImage({ type: 'page', name: 'Folio 1' });
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: [folder, page] } });
    renderNavigation(`/browse/${corpus.id}?page=1`);

    await screen.findByRole('link', { name: 'Box A' });
    expect(within(card('Box A')).getByRole('img', { name: 'No image' })).toBeTruthy();
    expect(within(card('Box A')).queryByText('Media loading failed')).toBeNull();

    const thumbnail = within(card('Folio 1')).getByRole('img', { name: 'Thumbnail of Folio 1' });
    expect(within(card('Folio 1')).queryByText('Media loading failed')).toBeNull();
    fireEvent.error(thumbnail);
    expect(within(card('Folio 1')).getByText('Media loading failed')).toBeTruthy();
    expect(within(card('Folio 1')).queryByRole('img')).toBeNull();
  });

  it('offer selection to logged-in users only', async () => {
    const folio = makeElement({ name: 'Folio 1' });
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: [folio] } });
    renderNavigation(`/browse/${corpus.id}?type=page`, null);
    const anonymousToggle = await screen.findByRole('checkbox', { name: 'Select Folio 1' });
    expect((anonymousToggle as HTMLInputElement).disabled).toBe(true);
    cleanup();

    renderNavigation(`/browse/${corpus.id}?type=page`, makeUser());
    const toggle = (await screen.findByRole('checkbox', {
      name: 'Select Folio 1',
    })) as HTMLInputElement;
    expect(toggle.disabled).toBe(false);
    await userEvent.click(toggle);
    expect(toggle.checked).toBe(true);
  });

  it('lay out a quarter of the width on desktop and half on small screens', async () => {
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: pages(2) } });
    renderNavigation(`/browse/${corpus.id}?type=page`);
    const grid = await screen.findByRole('list', { name: 'Elements' });
    expect(grid.className).toContain('grid-cols-2');
    expect(grid.className).toContain('lg:grid-cols-4');
  });
});

describe('The element list', () => {
  it('says when there is nothing to display', async () => {
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: [] } });
    renderNavigation(`/browse/${corpus.id}?type=page`);

    expect(await screen.findByText('No elements to display.')).toBeTruthy();
    expect(screen.getByText('No results')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('reads Loading… until the list arrives', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: pages(1) },
      listElements: async () => {
        await gate;
        return null;
      },
    });
    renderNavigation(`/browse/${corpus.id}?type=page`);

    expect((await screen.findByRole('status')).textContent).toBe('Loading…');
    release();
    expect(await screen.findByRole('link', { name: 'Folio 001' })).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
  });
});

describe('The pagination bar', () => {
  it('counts the items shown and moves between pages', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: pages(45) } });
    const { router } = renderNavigation(`/browse/${corpus.id}?type=page`);

    await expectSummary('Items 1 to 20 out of 45 elements');
    const bar = topBar();
    expect(within(bar).getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBe(
      'page',
    );
    // Three pages: no page jump yet.
    expect(within(bar).queryByLabelText('Go to page')).toBeNull();
    expect(
      within(bar).getByRole('link', { name: 'Previous page' }).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(within(bar).getByRole('link', { name: 'Go to page 3' }).getAttribute('href')).toBe(
      `/browse/${corpus.id}?type=page&page=3`,
    );

    await userEvent.click(within(bar).getByRole('link', { name: 'Next page' }));
    await expectSummary('Items 21 to 40 out of 45 elements');
    expect(server.lastList()!.query.get('page')).toBe('2');
    expect(router.state.location.search).toEqual({ type: 'page', page: 2 });

    await userEvent.click(within(topBar()).getByRole('link', { name: 'Go to page 3' }));
    await expectSummary('Items 41 to 45 out of 45 elements');
    expect(await screen.findByRole('link', { name: 'Folio 045' })).toBeTruthy();
    expect(
      within(topBar()).getByRole('link', { name: 'Next page' }).getAttribute('aria-disabled'),
    ).toBe('true');

    // Filtering starts again at the first page.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Page size' }), '50');
    await expectSummary('Items 1 to 45 out of 45 elements');
    expect(server.lastList()!.query.get('page')).toBe('1');
  });

  it('offers Go to page above three pages, within range and not the current page', async () => {
    const server = fakeServer({ corpora: [corpus], elements: { [corpus.id]: pages(81) } });
    renderNavigation(`/browse/${corpus.id}?type=page&page=2`);

    await expectSummary('Items 21 to 40 out of 81 elements');
    const jump = within(topBar()).getByLabelText('Go to page');
    const go = within(topBar()).getByRole('button', { name: 'Go' }) as HTMLButtonElement;
    for (const value of ['0', '6', '2', '1.5']) {
      await userEvent.clear(jump);
      await userEvent.type(jump, value);
      expect(go.disabled).toBe(true);
    }
    const before = server.listCalls().length;
    await userEvent.type(jump, '{Enter}');
    expect(server.listCalls()).toHaveLength(before);

    await userEvent.clear(jump);
    await userEvent.type(jump, '5{Enter}');
    await expectSummary('Items 81 to 81 out of 81 elements');
    expect(server.lastList()!.query.get('page')).toBe('5');
    const links = within(topBar())
      .getAllByRole('link')
      .map((link) => link.getAttribute('aria-label'));
    expect(links).toEqual(['Previous page', 'Go to page 1', 'Go to page 4', 'Page 5', 'Next page']);
  });

  it('uses the singular for a single element', async () => {
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: pages(1) } });
    renderNavigation(`/browse/${corpus.id}?type=page`);
    await expectSummary('Items 1 to 1 out of 1 element');
  });

  it('repeats under a long page, without a second page jump', async () => {
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: pages(100) } });
    renderNavigation(`/browse/${corpus.id}?type=page`);
    await expectSummary('Items 1 to 20 out of 100 elements');
    await waitFor(() =>
      expect(screen.getByRole('navigation', { name: 'Pagination, bottom' })).toBeTruthy(),
    );
    expect(screen.getAllByLabelText('Go to page')).toHaveLength(1);
  });
});
