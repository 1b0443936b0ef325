// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectivity } from '@/offline/runtime';
import {
  isolateEachTest,
  makeCorpus,
  makeElement,
  makeUser,
  openNavigation,
  openSelectionPage,
  resetSelectionEachTest,
  selectionServer,
} from './harness';

isolateEachTest();
resetSelectionEachTest();

const letters = makeCorpus({ name: 'Letters', rights: ['read', 'write'] });
const registers = makeCorpus({ name: 'Registers', rights: ['read'] });
const inProject = (corpus: typeof letters, name: string) =>
  makeElement({ name, corpus: { id: corpus.id } });

const letter1 = inProject(letters, 'Letter 1');
const letter2 = inProject(letters, 'Letter 2');
const register1 = inProject(registers, 'Register 1');

function counter() {
  return screen.getByRole('link', { name: /^Selection (\d+|loading)$/ });
}

function group(name: string) {
  return screen.getByRole('region', { name: new RegExp(`^${name} `) });
}

const cardNames = (region: HTMLElement) =>
  within(region)
    .getAllByRole('article')
    .map((card) => within(card).getByRole('heading').textContent);

describe('The selection page', () => {
  it('groups the selected elements per project, by project name, and counts them in the navbar', async () => {
    let release!: () => void;
    const holdRead = new Promise<void>((resolve) => (release = resolve));
    selectionServer({
      corpora: [letters, registers],
      elements: { [letters.id]: [letter1, letter2], [registers.id]: [register1] },
      selected: [register1, letter2, letter1],
      holdRead,
    });
    openSelectionPage(makeUser());

    // The loader while the first read runs.
    await waitFor(() => expect(counter().textContent).toBe('Selection loading'));
    release();
    await waitFor(() => expect(counter().textContent).toBe('Selection 3'));

    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Letters (2 elements)', 'Registers (1 element)']);
    expect(cardNames(group('Letters'))).toEqual(['Letter 2', 'Letter 1']);
    expect(cardNames(group('Registers'))).toEqual(['Register 1']);
    expect(screen.queryByText('Empty selection')).toBeNull();
  });

  it("says 'Empty selection' when nothing is selected", async () => {
    selectionServer({ corpora: [letters], selected: [] });
    openSelectionPage(makeUser());
    expect(await screen.findByText('Empty selection')).toBeTruthy();
    await waitFor(() => expect(counter().textContent).toBe('Selection 0'));
    expect(
      (screen.getByRole('button', { name: 'Unselect all' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it("'Unselect all' empties every project's part with one call", async () => {
    const server = selectionServer({
      corpora: [letters, registers],
      elements: { [letters.id]: [letter1], [registers.id]: [register1] },
      selected: [letter1, register1],
    });
    const user = userEvent.setup();
    openSelectionPage(makeUser());
    await screen.findByRole('heading', { name: 'Letters (1 element)' });

    await user.click(screen.getByRole('button', { name: 'Unselect all' }));
    expect(await screen.findByText('Empty selection')).toBeTruthy();
    expect(counter().textContent).toBe('Selection 0');
    await waitFor(() => expect(server.selectedNames()).toEqual([]));
    const deletes = server.callsTo('DELETE', '/elements/selection/');
    expect(deletes.map((call) => call.body)).toEqual([null]);
  });

  it("unselects one project's elements, one call per element, leaving the others", async () => {
    const server = selectionServer({
      corpora: [letters, registers],
      elements: { [letters.id]: [letter1, letter2], [registers.id]: [register1] },
      selected: [letter1, letter2, register1],
    });
    const user = userEvent.setup();
    openSelectionPage(makeUser());
    await screen.findByRole('heading', { name: 'Letters (2 elements)' });

    await user.click(within(group('Letters')).getByRole('button', { name: 'Unselect' }));
    await waitFor(() => expect(server.selectedNames()).toEqual(['Register 1']));
    expect(screen.queryByRole('heading', { name: /^Letters/ })).toBeNull();
    expect(counter().textContent).toBe('Selection 1');
    expect(
      server
        .callsTo('DELETE', '/elements/selection/')
        .map((call) => (call.body as { id: string }).id)
        .sort(),
    ).toEqual([letter1.id, letter2.id].sort());
  });

  it('reads the selection again when the user comes back to the tab', async () => {
    const server = selectionServer({
      corpora: [letters],
      elements: { [letters.id]: [letter1, letter2] },
      selected: [letter1],
    });
    openSelectionPage(makeUser());
    await screen.findByRole('heading', { name: 'Letters (1 element)' });
    // Selected in another tab meanwhile.
    server.selectElsewhere(letter2);
    fireEvent.focus(window);
    expect(await screen.findByRole('heading', { name: 'Letters (2 elements)' })).toBeTruthy();
    expect(counter().textContent).toBe('Selection 2');
  });

  it("unselects one element with its card's toggle", async () => {
    const server = selectionServer({
      corpora: [letters],
      elements: { [letters.id]: [letter1, letter2] },
      selected: [letter1, letter2],
    });
    const user = userEvent.setup();
    openSelectionPage(makeUser());
    const toggle = await screen.findByRole('checkbox', { name: 'Select Letter 1' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await user.click(toggle);
    await waitFor(() => expect(server.selectedNames()).toEqual(['Letter 2']));
    expect(cardNames(group('Letters'))).toEqual(['Letter 2']);
  });
});

describe('Selection toggles on cards', () => {
  it('select at once, count in the navbar and reach the server', async () => {
    const folio = makeElement({ name: 'Folio 1', type: 'page', corpus: { id: letters.id } });
    const server = selectionServer({
      corpora: [letters],
      elements: { [letters.id]: [folio] },
      selected: [],
    });
    const user = userEvent.setup();
    openNavigation(letters.id, makeUser());
    const toggle = (await screen.findByRole('checkbox', {
      name: 'Select Folio 1',
    })) as HTMLInputElement;
    await waitFor(() => expect(counter().textContent).toBe('Selection 0'));

    await user.click(toggle);
    expect(toggle.checked).toBe(true);
    expect(counter().textContent).toBe('Selection 1');
    await waitFor(() => expect(server.selectedNames()).toEqual(['Folio 1']));
    expect(server.callsTo('POST', '/elements/selection/').map((call) => call.body)).toEqual([
      { ids: [folio.id] },
    ]);

    await user.click(toggle);
    expect(toggle.checked).toBe(false);
    await waitFor(() => expect(server.selectedNames()).toEqual([]));
    expect(counter().textContent).toBe('Selection 0');
  });

  it('select offline at once, and reach the server once the network returns', async () => {
    const folio = makeElement({ name: 'Folio 2', type: 'page', corpus: { id: letters.id } });
    const server = selectionServer({
      corpora: [letters],
      elements: { [letters.id]: [folio] },
      selected: [],
    });
    const user = userEvent.setup();
    openNavigation(letters.id, makeUser());
    const toggle = (await screen.findByRole('checkbox', {
      name: 'Select Folio 2',
    })) as HTMLInputElement;
    await waitFor(() => expect(counter().textContent).toBe('Selection 0'));

    connectivity.store.set({ online: false, checkedAt: Date.now() });
    await user.click(toggle);
    expect(toggle.checked).toBe(true);
    expect(counter().textContent).toBe('Selection 1');
    expect(server.callsTo('POST', '/elements/selection/')).toHaveLength(0);

    connectivity.store.set({ online: true, checkedAt: Date.now() });
    await waitFor(() => expect(server.selectedNames()).toEqual(['Folio 2']));
    expect(server.callsTo('POST', '/elements/selection/')).toHaveLength(1);
    expect(toggle.checked).toBe(true);
  });

  it('are disabled for anonymous visitors and unverified users, saying why', async () => {
    const folio = makeElement({ name: 'Folio 1', type: 'page', corpus: { id: letters.id } });
    selectionServer({ corpora: [letters], elements: { [letters.id]: [folio] } });
    const { unmount } = openNavigation(letters.id, null);
    let toggle = (await screen.findByRole('checkbox', {
      name: 'Select Folio 1',
    })) as HTMLInputElement;
    expect(toggle.disabled).toBe(true);
    expect(toggle.closest('label')!.getAttribute('title')).toBe('Log in to select elements');
    unmount();

    openNavigation(letters.id, makeUser({ verified_email: false }));
    toggle = (await screen.findByRole('checkbox', { name: 'Select Folio 1' })) as HTMLInputElement;
    expect(toggle.disabled).toBe(true);
    expect(toggle.closest('label')!.getAttribute('title')).toBe(
      'Your email address should be verified',
    );
  });
});
