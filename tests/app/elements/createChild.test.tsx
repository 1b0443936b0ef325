// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setDisplaySetting } from '@/features/elements/displaySettings';
import type { Corpus, ElementType } from '@/api/types';
import {
  apiError,
  elementsApi,
  json,
  makeCorpus,
  makeElement,
  makeImage,
  makeUser,
  rect,
  TYPES,
  uuid,
  type Call,
  type Handler,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { menuEntry, openElement, openElementModal, openModal } from '../support/elementMenu';
import { installRecordingCanvas } from '../support/recordingCanvas';

isolateElementPageTests();
beforeEach(() => {
  installRecordingCanvas();
});

type Api = ReturnType<typeof elementsApi>;

/** POST /elements/create/ as the API answers it, the new child added under its parent. */
function addChild(api: Api, corpus: Corpus, call: Call): Response {
  const body = call.body as { parent: string; name: string; type: string };
  const created = makeElement(corpus, { id: uuid(), name: body.name, type: body.type });
  (api.children[body.parent] ??= []).push(created);
  api.touch(body.parent);
  return json(201, created);
}

/**
 * One element of a new project (and its image) behind the element endpoints. Creating answers
 * as the API does, unless `create` answers instead.
 */
function serveOne(fields: Parameters<typeof makeElement>[1], create?: Handler) {
  const corpus = makeCorpus();
  const element = makeElement(corpus, fields);
  const api: Api = elementsApi({
    corpus,
    elements: [element],
    ...(fields?.image && { images: [fields.image] }),
    overrides: { 'POST /elements/create/': create ?? ((call) => addChild(api, corpus, call)) },
  });
  return { corpus, element, api };
}

const ACT = { name: 'Act of sale', type: 'act' };
const VOLUME = { name: 'Volume 1', type: 'folder' };

describe('Create sub-element modal', () => {
  it("creates the child on the parent's zone and shows it in the tree at once", async () => {
    setDisplaySetting('annotationsTree', true);
    const image = makeImage();
    const polygon = rect(100, 200, 600, 800);
    const fields = { name: 'Column A', type: 'text_region', image, polygon };
    const { corpus, element: region, api } = serveOne(fields);
    const user = userEvent.setup();
    openElement(region.id);
    const tree = await screen.findByRole('navigation', { name: 'Children tree' });
    expect(await within(tree).findByText('No children')).toBeTruthy();

    const dialog = await openModal(user, 'Elements', 'Create sub-element', 'Create sub-element');
    expect(dialog.textContent).toContain('on the same zone of its image');
    await user.type(within(dialog).getByLabelText('Name'), 'Line 1');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Text line');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Element created.')).toBeTruthy();
    // The tree starts over after a change: find it again.
    const fresh = () => screen.getByRole('navigation', { name: 'Children tree' });
    await waitFor(() => expect(within(fresh()).getByRole('link', { name: 'Line 1' })).toBeTruthy());
    const post = api.calls.find((call) => call.method === 'POST')!;
    expect(post.body).toEqual({
      corpus: corpus.id,
      parent: region.id,
      name: 'Line 1',
      type: 'text_line',
      image: image.id,
      polygon,
    });
  });

  it('sends no image for a parent without a zone, and the list shows the new child', async () => {
    const { corpus, element: folder, api } = serveOne(VOLUME);
    const user = userEvent.setup();
    openElement(folder.id);
    expect(await screen.findByText('No elements to display.')).toBeTruthy();
    const dialog = await openModal(user, 'Elements', 'Create sub-element', 'Create sub-element');
    expect(dialog.textContent).toContain('It has no image, as this element has none.');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Page');
    // Enter in a field submits the form.
    await user.type(within(dialog).getByLabelText('Name'), 'Folio 1{Enter}');

    const list = await screen.findByRole('list', { name: 'Child elements' });
    expect(within(list).getByRole('link', { name: 'Folio 1' })).toBeTruthy();
    expect(api.calls.find((call) => call.method === 'POST')!.body).toEqual({
      corpus: corpus.id,
      parent: folder.id,
      name: 'Folio 1',
      type: 'page',
    });
  });

  it('offers every type of the project, folders included', async () => {
    const { element: act } = serveOne(ACT);
    const { dialog } = await openElementModal(act.id, 'Create sub-element');
    const options = within(within(dialog).getByLabelText('Type')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Choose a type',
      ...TYPES.map((type: ElementType) => type.display_name),
    ]);
  });

  it('asks for a name and a type before sending anything', async () => {
    const { element: act, api } = serveOne(ACT);
    const { user, dialog } = await openElementModal(act.id, 'Create sub-element');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('A name is required')).toBeTruthy();
    expect(within(dialog).getByText('A type is required')).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("shows a 400's messages in the modal", async () => {
    const { element: page } = serveOne({ name: 'Folio 2', image: makeImage() }, () =>
      json(400, {
        type: 'validation_error',
        errors: [
          { code: 'invalid', detail: 'This polygon is too small.', attr: 'polygon' },
          { code: 'blank', detail: 'This field may not be blank.', attr: 'name' },
        ],
      }),
    );
    const { user, dialog } = await openElementModal(page.id, 'Create sub-element');
    await user.type(within(dialog).getByLabelText('Name'), 'Margin');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Text region');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('This polygon is too small.')).toBeTruthy();
    expect(within(dialog).getByText('This field may not be blank.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
  });

  it('reports another failure with the spec message', async () => {
    const { element: act } = serveOne(ACT, () => apiError(403, 'Try again later'));
    const { user, dialog } = await openElementModal(act.id, 'Create sub-element');
    await user.type(within(dialog).getByLabelText('Name'), 'Clause');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Act');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const text = 'An error occurred during element creation: Try again later';
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
  });
});

describe('New folder modal on the element page', () => {
  it('creates a folder inside the current one, with its single folder type preselected', async () => {
    const { corpus, element: folder, api } = serveOne(VOLUME);
    const { user, dialog } = await openElementModal(folder.id, 'New folder');
    const type = within(dialog).getByLabelText('Type') as HTMLSelectElement;
    expect(type.value).toBe('folder');
    await user.type(within(dialog).getByLabelText('Name'), 'Box 2');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const notice = await screen.findByText('Folder "Box 2" created.');
    const created = api.children[folder.id]![0]!;
    const link = within(notice.closest('[role="status"]') as HTMLElement).getByRole('link', {
      name: 'Open the folder',
    });
    expect(link.getAttribute('href')).toBe(`/element/${created.id}`);
    expect(api.calls.find((call) => call.method === 'POST')!.body).toEqual({
      corpus: corpus.id,
      parent: folder.id,
      type: 'folder',
      name: 'Box 2',
    });
    const list = await screen.findByRole('list', { name: 'Child elements' });
    expect(within(list).getByRole('link', { name: 'Box 2' })).toBeTruthy();
  });

  it('is only offered inside folders', async () => {
    const { element: act } = serveOne(ACT);
    const user = userEvent.setup();
    openElement(act.id);
    await menuEntry(user, 'Elements', 'Edit element');
    expect(screen.queryByRole('menuitem', { name: 'New folder' })).toBeNull();
  });

  it('needs a verified e-mail', async () => {
    const { element: folder } = serveOne(VOLUME);
    const user = userEvent.setup();
    openElement(folder.id, makeUser({ verified_email: false }));
    const entry = await menuEntry(user, 'Elements', 'New folder');
    expect(entry.getAttribute('aria-disabled')).toBe('true');
    expect(entry.getAttribute('title')).toBe('Your email address should be verified');
  });

  it('reports a failure with the spec message', async () => {
    const { element: folder } = serveOne(VOLUME, () => apiError(403, 'Disk full'));
    const { user, dialog } = await openElementModal(folder.id, 'New folder');
    await user.type(within(dialog).getByLabelText('Name'), 'Box 3');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const text = 'An error occurred while creating the folder: Disk full';
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
    expect(within(dialog).getByLabelText('Name')).toHaveProperty('value', 'Box 3');
  });
});
