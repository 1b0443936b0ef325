// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FOLDER_PAGE_SIZE } from '@/api/elements';
import type { Element } from '@/api/types';
import {
  apiError,
  elementsApi,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  ref,
  TYPES,
  type ElementsApiOptions,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { menuEntry, openElement, openElementModal, openModal } from '../support/elementMenu';

isolateElementPageTests();

/** Two top-level volumes, the first holding a box (of pages only) and the act to move. */
function archive() {
  const corpus = makeCorpus();
  const volume1 = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const volume2 = makeElement(corpus, { name: 'Volume 2', type: 'folder' });
  const box = makeElement(corpus, { name: 'Box A', type: 'folder' });
  const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
  const folio = makeElement(corpus, { name: 'Folio 1', type: 'page' });
  const children: Record<string, Element[]> = { [volume1.id]: [box, act], [box.id]: [folio] };
  const neighbours = {
    [act.id]: [{ path: [ref(volume1)], ordering: 1, previous: ref(box), next: null }],
  };
  /** These elements behind the element endpoints, with what the test adds. */
  const serve = (extra: Partial<ElementsApiOptions> = {}) =>
    elementsApi({ corpus, elements: [volume1, volume2, box, act], children, ...extra });
  return { corpus, volume1, volume2, box, act, neighbours, serve };
}

const radios = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('radio')
    .map((radio) => radio.closest('div')!.textContent);

describe('Move element modal', () => {
  it('picks a folder in a lazily expanded tree and moves the element there', async () => {
    const { corpus, volume1, volume2, box, act, neighbours, serve } = archive();
    const api = serve({
      neighbours,
      overrides: {
        'POST /element/move/': (call) => {
          const { destination } = call.body as { destination: string };
          neighbours[act.id] = [
            { path: [ref(destination === box.id ? box : volume2)], ordering: 0 } as never,
          ];
          return json(200, call.body);
        },
      },
    });
    const user = userEvent.setup();
    openElement(act.id);
    await screen.findByRole('link', { name: 'Volume 1' });
    const dialog = await openModal(user, 'Elements', 'Move element', 'Move element');

    await within(dialog).findByRole('radio', { name: 'Volume 1' });
    expect(radios(dialog)).toEqual(['▸Volume 1', 'Volume 2']);
    const picker = api.calls.filter((call) => call.path === `/corpus/${corpus.id}/elements/`);
    expect(Object.fromEntries(picker[0]!.query)).toMatchObject({
      folder: 'true',
      top_level: 'true',
    });
    // Spec 001 §5: moving needs a picked folder.
    const move = within(dialog).getByRole('button', { name: 'Move' }) as HTMLButtonElement;
    expect(move.disabled).toBe(true);
    expect(within(dialog).getByText('Pick a folder first.')).toBeTruthy();
    // Nothing below a folder is asked for before it is expanded.
    expect(api.childrenCalls(volume1.id)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Expand Volume 1' }));
    await within(dialog).findByRole('radio', { name: 'Box A' });
    expect(api.childrenCalls(volume1.id)[0]!.query.get('folder')).toBe('true');
    // The act itself is not a folder; the box is.
    expect(within(dialog).queryByRole('radio', { name: 'Act of sale' })).toBeNull();

    // The box holds pages but no folder.
    await user.click(within(dialog).getByRole('button', { name: 'Expand Box A' }));
    expect(await within(dialog).findByText('No folders found')).toBeTruthy();
    // Volume 2 has no children at all: nothing to expand.
    expect(within(dialog).queryByRole('button', { name: 'Expand Volume 2' })).toBeNull();

    await user.click(within(dialog).getByRole('radio', { name: 'Box A' }));
    expect(within(dialog).getByText('Picked folder: Box A')).toBeTruthy();
    expect(move.disabled).toBe(false);
    await user.click(move);

    expect(await screen.findByText('Element moved.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls.find((call) => call.method === 'POST')!.body).toEqual({
      source: act.id,
      destination: box.id,
    });
    // The breadcrumb follows the element to its new parent.
    expect(await screen.findByRole('link', { name: 'Box A' })).toBeTruthy();
  });

  it("offers 'Load more' while the folders have a next page", async () => {
    const corpus = makeCorpus();
    const volumes = Array.from({ length: FOLDER_PAGE_SIZE + 3 }, (_, i) =>
      makeElement(corpus, { name: `Volume ${String(i + 1).padStart(2, '0')}`, type: 'folder' }),
    );
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    elementsApi({ corpus, elements: [...volumes, act] });
    const { user, dialog } = await openElementModal(act.id, 'Move element');
    await within(dialog).findByRole('radio', { name: 'Volume 01' });
    expect(within(dialog).getAllByRole('radio')).toHaveLength(FOLDER_PAGE_SIZE);

    await user.click(within(dialog).getByRole('button', { name: 'Load more' }));
    await within(dialog).findByRole('radio', { name: 'Volume 23' });
    expect(within(dialog).getAllByRole('radio')).toHaveLength(FOLDER_PAGE_SIZE + 3);
    expect(within(dialog).queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("reads 'No folders found' in a project without folders", async () => {
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
    elementsApi({ corpus, elements: [act] });
    const { dialog } = await openElementModal(act.id, 'Move element');
    expect(await within(dialog).findByText('No folders found')).toBeTruthy();
    expect(
      (within(dialog).getByRole('button', { name: 'Move' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('leaves the moved folder out of the picker', async () => {
    const { volume2, serve } = archive();
    serve();
    const { dialog } = await openElementModal(volume2.id, 'Move element');
    await within(dialog).findByRole('radio', { name: 'Volume 1' });
    expect(within(dialog).queryByRole('radio', { name: 'Volume 2' })).toBeNull();
  });

  it("shows the server's destination error in the modal", async () => {
    const { act, neighbours, serve } = archive();
    serve({
      neighbours,
      overrides: {
        'POST /element/move/': () =>
          json(400, {
            type: 'validation_error',
            errors: [
              {
                code: 'invalid',
                detail: 'The destination cannot be the source or one of its descendants.',
                attr: 'destination',
              },
            ],
          }),
      },
    });
    const { user, dialog } = await openElementModal(act.id, 'Move element');
    await user.click(await within(dialog).findByRole('radio', { name: 'Volume 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(
      'The destination cannot be the source or one of its descendants.',
    );
    expect(screen.getByRole('dialog', { name: 'Move element' })).toBeTruthy();
  });

  it('needs a write right, a verified e-mail and a folder type', async () => {
    const noFolders = makeCorpus({ types: TYPES.filter((type) => !type.folder) });
    const act = makeElement(noFolders, { name: 'Act of sale', type: 'act' });
    elementsApi({ corpus: noFolders, elements: [act] });
    const user = userEvent.setup();
    openElement(act.id);
    const move = await menuEntry(user, 'Elements', 'Move element');
    expect(move.getAttribute('aria-disabled')).toBe('true');
    expect(move.getAttribute('title')).toBe('This project has no folder type');
    cleanup();

    const readOnly = makeCorpus({ rights: ['read'] });
    const other = makeElement(readOnly, { name: 'Other act', type: 'act' });
    elementsApi({ corpus: readOnly, elements: [other] });
    openElement(other.id, makeUser({ verified_email: false }));
    const link = await menuEntry(user, 'Elements', 'Link to another parent');
    expect(link.getAttribute('title')).toBe('You must have a contributor access to this project');
  });
});

describe('Link to another parent modal', () => {
  it('links the element to the picked folder', async () => {
    const { volume2, act, neighbours, serve } = archive();
    const api = serve({
      neighbours,
      overrides: {
        [`POST /element/${act.id}/parent/${volume2.id}/`]: () =>
          json(201, { child: act.id, parent: volume2.id }),
      },
    });
    const { user, dialog } = await openElementModal(act.id, 'Link to another parent');
    expect(dialog.textContent).toContain('keeps its current parents');
    await user.click(await within(dialog).findByRole('radio', { name: 'Volume 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Element linked.')).toBeTruthy();
    const post = api.calls.find((call) => call.method === 'POST')!;
    expect(post.path).toBe(`/element/${act.id}/parent/${volume2.id}/`);
    // The page asks again where the element sits.
    await waitFor(() =>
      expect(api.calls.filter((call) => call.path.endsWith('/neighbors/'))).toHaveLength(2),
    );
  });

  it('says a scheduled link is scheduled', async () => {
    const { volume2, act, serve } = archive();
    serve({
      overrides: { [`POST /element/${act.id}/parent/${volume2.id}/`]: () => json(202, {}) },
    });
    const { user, dialog } = await openElementModal(act.id, 'Link to another parent');
    await user.click(await within(dialog).findByRole('radio', { name: 'Volume 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Element linking has been scheduled.')).toBeTruthy();
  });

  it('shows the parent error of a 400 and reports other failures', async () => {
    const { volume1, act, serve } = archive();
    let answer = json(400, {
      type: 'validation_error',
      errors: [
        {
          code: 'unique',
          detail: 'This element is already a child of this parent.',
          attr: 'parent',
        },
      ],
    });
    serve({ overrides: { [`POST /element/${act.id}/parent/${volume1.id}/`]: () => answer } });
    const { user, dialog } = await openElementModal(act.id, 'Link to another parent');
    await user.click(await within(dialog).findByRole('radio', { name: 'Volume 1' }));
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(
      await within(dialog).findByText('This element is already a child of this parent.'),
    ).toBeTruthy();

    answer = apiError(403, 'You do not have a write right on the parent.');
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    const text =
      'An error occurred while linking the element: You do not have a write right on the parent.';
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
    expect(
      within(dialog).queryByText('This element is already a child of this parent.'),
    ).toBeNull();
  });
});
