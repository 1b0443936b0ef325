// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  elementsApi,
  makeChildren,
  makeCorpus,
  makeElement,
  makeUser,
  renderApp,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';

isolateElementPageTests();
// The machine may be busy: the page's reads go through IndexedDB before anything shows.
configure({ asyncUtilTimeout: 10_000 });

function registerFolder() {
  const corpus = makeCorpus({ name: 'Register 1742' });
  const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const pages = makeChildren(corpus, 3, (i) => ({ name: `Folio ${i + 1}`, type: 'page' }));
  const api = elementsApi({
    corpus,
    elements: [folder, ...pages],
    children: { [folder.id]: pages },
  });
  return { folder, api };
}

const lastQuery = (api: ReturnType<typeof elementsApi>, id: string) =>
  Object.fromEntries(api.childrenCalls(id).at(-1)!.query);

describe("a folder's children", () => {
  it('are filtered, ordered and paged as the project list is, with the query in the address', async () => {
    const { folder, api } = registerFolder();
    const { router } = renderApp(`/element/${folder.id}`, makeUser());
    await screen.findByRole('list', { name: 'Child elements' });
    expect(lastQuery(api, folder.id)).toMatchObject({ order: 'position', page_size: '20' });
    const filter = screen.getByRole('combobox', { name: 'Filter' });
    // Top level means nothing under an element.
    expect(within(filter).queryByRole('option', { name: 'Top level' })).toBeNull();

    await userEvent.selectOptions(filter, 'type');
    await userEvent.type(screen.getByLabelText('Value'), 'Page');
    await userEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ type: 'page' }));
    await waitFor(() => expect(lastQuery(api, folder.id)).toMatchObject({ type: 'page' }));
    expect(screen.getByRole('button', { name: 'Remove filter Type' })).toBeTruthy();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Order by' }), 'name');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Page size' }), '50');
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ type: 'page', order: 'name', page_size: 50 }),
    );
    await waitFor(() =>
      expect(lastQuery(api, folder.id)).toMatchObject({
        type: 'page',
        order: 'name',
        order_direction: 'asc',
        page_size: '50',
      }),
    );
  });

  it('open as a link gave them, invalid values set back to the defaults', async () => {
    const { folder, api } = registerFolder();
    renderApp(
      `/element/${folder.id}?name=Folio&order=created&order_direction=desc&page_size=7`,
      makeUser(),
    );
    await screen.findByRole('list', { name: 'Child elements' });
    expect(lastQuery(api, folder.id)).toMatchObject({
      name: 'Folio',
      order: 'created',
      order_direction: 'desc',
      page_size: '20',
    });
    expect(screen.getByRole('combobox', { name: 'Order by' })).toHaveProperty('value', 'created');
    // The address is read once: one request.
    expect(api.childrenCalls(folder.id)).toHaveLength(1);
  });
});
