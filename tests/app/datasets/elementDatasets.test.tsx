// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { Dataset, ElementDatasetSet } from '@/api/datasets';
import type { Corpus, Right } from '@/api/types';
import { localDb } from '@/offline/db';
import { inDb } from '@/offline/datasetQueue';
import { SAVED_ON_DEVICE, connectivity, syncScheduler } from '@/offline/runtime';
import { apiError } from '../support/harness';
import {
  detailsApi,
  isolateDetailsTests,
  json,
  makeUser,
  openDetails,
  uuid,
} from '../support/details';
import { makeCorpus } from '../support/elementsApi';
import { makeDataset } from './populateHarness';

isolateDetailsTests();

const NOT_OPEN = 'Only open datasets can be edited';

/**
 * An element in the datasets given, behind a fake API that keeps what the table changes: the
 * sets answered and the removals received.
 */
function setsApi(
  build: (corpus: Corpus) => { dataset: Dataset; set: string; previous?: string }[],
  options: {
    rights?: Right[];
    refuseRemoval?: string;
    /** Added to on POST, after the element named. */
    addable?: { dataset: Dataset; previous: string };
  } = {},
) {
  const removals: { path: string; set: string | null }[] = [];
  const opened = detailsApi({ rights: options.rights });
  let entries: ElementDatasetSet[] = build(opened.corpus).map(({ dataset, set, previous }) => ({
    dataset,
    set,
    previous: previous ?? null,
    next: uuid(),
  }));
  const { element } = opened;
  const sets = () =>
    json(200, { count: entries.length, next: null, previous: null, results: entries });
  // The element's sets and their removals, before the panel's stand-in.
  const fetchBefore = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api\/v1/, '');
    if (method === 'GET' && path === `/element/${element.id}/sets/`) return sets();
    if (method === 'POST' && options.addable && path.endsWith('/elements/')) {
      const { set } = JSON.parse(String(init?.body)) as { set: string };
      const { dataset, previous } = options.addable;
      entries = [...entries, { dataset, set, previous, next: null }];
      return json(201, { element_id: element.id, set });
    }
    const removal = path.match(/^\/datasets\/([^/]+)\/elements\/([^/]+)\/$/);
    if (method === 'DELETE' && removal) {
      removals.push({ path, set: url.searchParams.get('set') });
      if (options.refuseRemoval) {
        return apiError(400, [{ attr: null, detail: options.refuseRemoval }]);
      }
      const set = url.searchParams.get('set');
      entries = entries.filter((entry) => !(entry.dataset.id === removal[1] && entry.set === set));
      return json(204, null);
    }
    return fetchBefore(input, init);
  });
  return { ...opened, removals, entries: () => entries };
}

async function datasetsOf(elementId: string, as = makeUser()) {
  const opened = await openDetails(elementId, as);
  const section = within(opened.panel).getByRole('region', { name: 'Datasets' });
  return { ...opened, section };
}

describe('The element datasets table', () => {
  it('reads No datasets when the element is in none', async () => {
    const { element } = setsApi(() => []);
    const { section } = await datasetsOf(element.id);
    expect(await within(section).findByText('No datasets')).toBeTruthy();
    expect(within(section).queryByRole('table')).toBeNull();
  });

  it('lists each dataset and set with its badge and the neighbours in that set', async () => {
    const previous = uuid();
    let lines: Dataset | null = null;
    const { element, entries } = setsApi((corpus) => {
      lines = makeDataset(corpus, { name: 'Lines', sets: ['train', 'dev', 'test'] });
      return [
        { dataset: lines, set: 'dev', previous },
        { dataset: makeDataset(corpus, { name: 'Pages' }), set: 'train' },
      ];
    });
    const { section } = await datasetsOf(element.id);
    const table = await within(section).findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Set', 'Navigation', 'Remove']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      'dev',
      'train',
    ]);
    // The set's colour follows its place among the dataset's sets.
    expect(rows[0]!.querySelector('[data-set-colour]')!.getAttribute('data-set-colour')).toBe('1');
    expect(within(rows[0]!).getByRole('link', { name: 'Lines' }).getAttribute('href')).toBe(
      `/dataset/${lines!.id}`,
    );
    const back = within(rows[0]!).getByRole('link', { name: 'Previous element in dev of Lines' });
    expect(back.getAttribute('href')).toBe(`/element/${previous}`);
    const next = within(rows[0]!).getByRole('link', { name: 'Next element in dev of Lines' });
    expect(next.getAttribute('href')).toBe(`/element/${entries()[0]!.next}`);
    // First of its set in Pages: no previous element.
    const none = within(rows[1]!).getByRole('link', { name: 'Previous element in train of Pages' });
    expect(none.getAttribute('aria-disabled')).toBe('true');
    expect(none.getAttribute('href')).toBeNull();
  });

  it('removes the element from a set after a confirmation', async () => {
    const { element, removals } = setsApi((corpus) => [
      { dataset: makeDataset(corpus, { name: 'Lines' }), set: 'train' },
    ]);
    const { section, user } = await datasetsOf(element.id);
    await user.click(
      await within(section).findByRole('button', { name: 'Remove from train of Lines' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove element from dataset set' });
    expect(dialog.textContent).toContain(
      'Are you sure you want to remove “Folio 12” from the set train of the dataset “Lines”?',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(section).findByText('No datasets')).toBeTruthy();
    expect(
      await screen.findByText('The element has been removed from the dataset set.'),
    ).toBeTruthy();
    expect(removals).toHaveLength(1);
    expect(removals[0]!.path).toMatch(new RegExp(`/elements/${element.id}/$`));
    expect(removals[0]!.set).toBe('train');
    expect(await localDb.outbox.count()).toBe(0);
  });

  it('keeps a removal made offline for later and shows it at once', async () => {
    const { element, removals } = setsApi((corpus) => [
      { dataset: makeDataset(corpus, { name: 'Lines' }), set: 'test' },
    ]);
    const { section, user } = await datasetsOf(element.id);
    const remove = await within(section).findByRole('button', {
      name: 'Remove from test of Lines',
    });
    connectivity.store.set({ online: false, checkedAt: null });
    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Remove element from dataset set' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(section).findByText('No datasets')).toBeTruthy();
    expect(await screen.findByText(SAVED_ON_DEVICE)).toBeTruthy();
    expect(removals).toEqual([]);
    const [queued] = await localDb.outbox.toArray();
    expect(queued).toMatchObject({
      kind: 'dataset.element.remove',
      payload: { element: element.id, set: 'test' },
    });
  });

  it('shows an addition made offline at once, and its neighbours once it reached the server', async () => {
    const before = uuid();
    const lines = makeDataset(makeCorpus(), { name: 'Lines' });
    const { element } = setsApi(() => [], { addable: { dataset: lines, previous: before } });
    const { section } = await datasetsOf(element.id);
    expect(await within(section).findByText('No datasets')).toBeTruthy();
    connectivity.store.set({ online: false, checkedAt: null });
    await inDb.addElementToSet(localDb, {
      dataset: lines,
      set: 'dev',
      element: { id: element.id, name: element.name, type: element.type },
    });
    const previous = await within(section).findByRole('link', {
      name: 'Previous element in dev of Lines',
    });
    // Not known until the server has it.
    expect(previous.getAttribute('aria-disabled')).toBe('true');

    connectivity.store.set({ online: true, checkedAt: null });
    await act(async () => {
      await syncScheduler.kick();
    });
    await waitFor(() =>
      expect(
        within(section)
          .getByRole('link', { name: 'Previous element in dev of Lines' })
          .getAttribute('href'),
      ).toBe(`/element/${before}`),
    );
    expect(await localDb.outbox.count()).toBe(0);
  });

  it('tells a refusal and shows the element in its set again', async () => {
    const { element, removals } = setsApi(
      (corpus) => [{ dataset: makeDataset(corpus, { name: 'Lines' }), set: 'dev' }],
      { refuseRemoval: NOT_OPEN },
    );
    const { section, user } = await datasetsOf(element.id);
    await user.click(
      await within(section).findByRole('button', { name: 'Remove from dev of Lines' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove element from dataset set' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(NOT_OPEN)).toBeTruthy();
    expect(removals).toHaveLength(1);
    await waitFor(() => expect(within(section).getByRole('link', { name: 'Lines' })).toBeTruthy());
    expect(await localDb.outbox.count()).toBe(0);
  });

  it('says why an element cannot be taken out of a set', async () => {
    const { element } = setsApi((corpus) => [
      {
        dataset: makeDataset(corpus, { name: 'Closed', state: 'complete' }),
        set: 'train',
      },
      { dataset: makeDataset(corpus, { name: 'Open' }), set: 'train' },
    ]);
    const { section, user } = await datasetsOf(element.id);
    const closed = await within(section).findByRole('button', {
      name: 'Remove from train of Closed',
    });
    expect(closed.getAttribute('aria-disabled')).toBe('true');
    expect(closed.getAttribute('title')).toBe(NOT_OPEN);
    await user.click(closed);
    expect(screen.queryByRole('dialog')).toBeNull();
    const open = within(section).getByRole('button', { name: 'Remove from train of Open' });
    expect(open.getAttribute('aria-disabled')).toBeNull();
  });

  it('asks for a write right and a verified e-mail', async () => {
    const guest = setsApi(
      (corpus) => [{ dataset: makeDataset(corpus, { name: 'Lines' }), set: 'train' }],
      { rights: ['read'] },
    );
    const { section } = await datasetsOf(guest.element.id);
    const remove = await within(section).findByRole('button', {
      name: 'Remove from train of Lines',
    });
    expect(remove.getAttribute('title')).toBe(
      'You do not have the required rights to edit this dataset',
    );
    expect(within(section).queryByRole('button', { name: 'Add to dataset' })).toBeNull();
  });

  it('asks an unverified contributor to verify their e-mail first', async () => {
    const { element } = setsApi((corpus) => [
      { dataset: makeDataset(corpus, { name: 'Lines' }), set: 'train' },
    ]);
    const { section } = await datasetsOf(element.id, makeUser({ verified_email: false }));
    const remove = await within(section).findByRole('button', {
      name: 'Remove from train of Lines',
    });
    expect(remove.getAttribute('title')).toBe('Your email address should be verified');
  });

  it('opens Add to dataset for this element', async () => {
    const { element } = setsApi(() => []);
    const { section, user } = await datasetsOf(element.id);
    await user.click(within(section).getByRole('button', { name: 'Add to dataset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to dataset' });
    expect(dialog.textContent).toContain('Add Folio 12 to a set of a dataset.');
  });
});
