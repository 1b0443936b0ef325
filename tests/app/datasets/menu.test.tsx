// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Dataset } from '@/api/datasets';
import type { Corpus, Element } from '@/api/types';
import {
  elementsApi,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  type Handler,
} from '../support/elementsApi';
import { apiError, pageOf } from '../support/harness';
import { isolateElementPageTests } from '../support/elementPage';
import { menuEntry, openElement } from '../support/elementMenu';
import { makeDataset } from './pageHarness';

isolateElementPageTests();

type Rights = Corpus['rights'];

/** A folder and a page of a project whose dataset list `datasets` answers. */
function project(rights: Rights, datasets: (corpus: Corpus) => Handler) {
  const corpus = makeCorpus({ rights });
  const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const page = makeElement(corpus, { name: 'Page 1', type: 'page' });
  const neighbours = { path: [], ordering: 0, previous: null, next: null };
  const api = elementsApi({
    corpus,
    elements: [folder, page],
    neighbours: { [folder.id]: [neighbours], [page.id]: [neighbours] },
    overrides: { [`/corpus/${corpus.id}/datasets/`]: datasets(corpus) },
  });
  return { corpus, folder, page, api };
}

const listing =
  (...made: ((corpus: Corpus) => Dataset)[]) =>
  (corpus: Corpus): Handler =>
  (call) => {
    if (call.method !== 'GET') return null;
    const link = (n: number) => `http://localhost/api/v1${call.path}?page=${n}`;
    return json(
      200,
      pageOf(
        made.map((make) => make(corpus)),
        1,
        100,
        link,
      ),
    );
  };

/** Opens the element's page, then its Project menu. */
async function projectMenu(element: Element, as = makeUser()) {
  const user = userEvent.setup();
  openElement(element.id, as);
  await menuEntry(user, 'Project', 'Browse project');
  return user;
}

/** An entry of the Project menu, already open, once the project's rights are in. */
const projectEntry = (name: string) =>
  waitFor(() => {
    const item = screen.getByRole('menuitem', { name });
    expect(item.getAttribute('title')).not.toBe('The project is loading');
    return item;
  });

describe("the Project menu's datasets", () => {
  it('lists the datasets with their state, each linking to its page', async () => {
    let made: Dataset[] = [];
    const { page } = project(['read'], (corpus) => {
      made = [
        makeDataset(corpus, { name: 'Handwriting' }),
        makeDataset(corpus, { name: 'Layout', state: 'complete' }),
      ];
      return listing(...made.map((dataset) => () => dataset))(corpus);
    });
    await projectMenu(page);
    const section = await screen.findByRole('group', { name: 'Datasets' });
    // 'Loading…' stands in the section until the list is read.
    await waitFor(() =>
      expect(
        within(section)
          .getAllByRole('menuitem')
          .map((entry) => entry.textContent),
      ).toEqual(['HandwritingOpen', 'LayoutComplete']),
    );
    const entries = within(section).getAllByRole('menuitem');
    expect(entries.map((entry) => entry.getAttribute('href'))).toEqual(
      made.map((dataset) => `/dataset/${dataset.id}`),
    );
  });

  it('says when the project has none', async () => {
    const { page } = project(['read'], listing());
    await projectMenu(page);
    expect(await screen.findByText('No dataset available')).toBeTruthy();
  });

  it('says when they could not be read', async () => {
    const { page } = project(
      ['read'],
      () => () => apiError(500, [{ attr: null, detail: 'The database is down.' }]),
    );
    await projectMenu(page);
    expect(
      await screen.findByText('An error occurred fetching datasets for this corpus.'),
    ).toBeTruthy();
  });

  it('creates a dataset and opens its page', async () => {
    let created: Dataset | null = null;
    const { page, api } = project(['read', 'write'], (corpus) => (call) => {
      if (call.method === 'GET') return listing()(corpus)(call);
      const body = call.body as { name: string; description: string; set_names: string[] };
      created = makeDataset(corpus, { name: body.name, description: body.description });
      return json(201, created);
    });
    const user = await projectMenu(page);
    await user.click(await projectEntry('Create a dataset'));
    const dialog = await screen.findByRole('dialog', { name: 'Create a dataset' });
    await user.type(within(dialog).getByLabelText('Name'), 'Handwriting');
    await user.type(within(dialog).getByLabelText('Description'), 'Lines');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /dataset/${created!.id}`,
    );
    const posts = api.calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.body)).toEqual([
      {
        name: 'Handwriting',
        description: 'Lines',
        unique_elements: true,
        set_names: ['train', 'dev', 'test'],
      },
    ]);
  });

  it('tells a guest why creating one is not allowed', async () => {
    const guest = project(['read'], listing());
    await projectMenu(guest.page);
    const entry = await projectEntry('Create a dataset');
    expect(entry.getAttribute('aria-disabled')).toBe('true');
    expect(entry.getAttribute('title')).toBe('You must have a contributor access to this project');
  });

  it('tells an unverified writer to verify the e-mail first', async () => {
    const writer = project(['read', 'write'], listing());
    await projectMenu(writer.page, makeUser({ verified_email: false }));
    const entry = await projectEntry('Create a dataset');
    expect(entry.getAttribute('aria-disabled')).toBe('true');
    expect(entry.getAttribute('title')).toBe('Your email address should be verified');
  });
});

describe("the Elements menu's dataset actions", () => {
  it('adds the element to a dataset for a writer', async () => {
    const { page } = project(
      ['read', 'write'],
      listing((corpus) => makeDataset(corpus)),
    );
    const user = userEvent.setup();
    openElement(page.id);
    await user.click(await menuEntry(user, 'Elements', 'Add to dataset'));
    const dialog = await screen.findByRole('dialog', { name: 'Add to dataset' });
    // The modal is C's: here it opens for this element.
    expect(within(dialog).getByText(/Page 1/)).toBeTruthy();
  });

  it('has no populate entry on an element that is not a folder', async () => {
    const { page } = project(['read', 'write'], listing());
    const user = userEvent.setup();
    openElement(page.id);
    await menuEntry(user, 'Elements', 'Add to dataset');
    expect(screen.queryByRole('menuitem', { name: 'Populate a dataset' })).toBeNull();
  });

  it('populates a dataset from a folder for a verified writer', async () => {
    const { folder } = project(
      ['read', 'write'],
      listing((corpus) => makeDataset(corpus)),
    );
    const user = userEvent.setup();
    openElement(folder.id);
    await user.click(await menuEntry(user, 'Elements', 'Populate a dataset'));
    expect(await screen.findByRole('dialog', { name: 'Populate dataset' })).toBeTruthy();
  });

  it('tells a guest that adding and populating need a contributor access', async () => {
    const { folder, api } = project(['read'], listing());
    const user = userEvent.setup();
    openElement(folder.id);
    const add = await menuEntry(user, 'Elements', 'Add to dataset');
    expect(add.getAttribute('aria-disabled')).toBe('true');
    expect(add.getAttribute('title')).toBe('You must have a contributor access to this project');
    const populate = screen.getByRole('menuitem', { name: 'Populate a dataset' });
    expect(populate.getAttribute('aria-disabled')).toBe('true');
    expect(populate.getAttribute('title')).toBe(
      'You must have a contributor access in order to perform this action.',
    );
    await user.click(populate);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('asks a writer to verify the e-mail before populating', async () => {
    const { folder } = project(['read', 'write'], listing());
    const user = userEvent.setup();
    openElement(folder.id, makeUser({ verified_email: false }));
    const populate = await menuEntry(user, 'Elements', 'Populate a dataset');
    expect(populate.getAttribute('title')).toBe('Your email address should be verified');
  });
});
