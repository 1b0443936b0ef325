// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { isTempId } from '@/offline/outboxEntry';
import { syncScheduler } from '@/offline/runtime';
import {
  apiError,
  elementsApi,
  json,
  makeCorpus,
  makeElement,
  uuid,
  type Call,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { openModal, openElement } from '../support/elementMenu';
import { installRecordingCanvas } from '../support/recordingCanvas';

isolateElementPageTests();
beforeEach(() => {
  installRecordingCanvas();
});

it('opens a sub-element made on this device from its link, before and after the server has it', async () => {
  const corpus = makeCorpus();
  const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const elements = [folder];
  let serverUp = false;
  const api = elementsApi({
    corpus,
    elements,
    overrides: {
      // The server cannot take it yet: the new page stays on this device for a while.
      'POST /elements/create/': (call: Call) => {
        if (!serverUp) return apiError(503, 'Unavailable.');
        const body = call.body as { parent: string; name: string; type: string };
        const created = makeElement(corpus, { id: uuid(), name: body.name, type: body.type });
        (api.children[body.parent] ??= []).push(created);
        elements.push(created);
        api.touch(body.parent);
        return json(201, created);
      },
    },
  });
  const user = userEvent.setup();
  const opened = openElement(folder.id);
  const dialog = await openModal(user, 'Elements', 'Create sub-element', 'Create sub-element');
  await user.selectOptions(within(dialog).getByLabelText('Type'), 'Page');
  await user.type(within(dialog).getByLabelText('Name'), 'Folio 1{Enter}');
  const list = await screen.findByRole('list', { name: 'Child elements' }, { timeout: 5000 });
  const link = await within(list).findByRole('link', { name: 'Folio 1' }, { timeout: 5000 });
  const tempPath = link.getAttribute('href')!;
  expect(isTempId(tempPath.split('/').at(-1)!)).toBe(true);

  // Its page opens from the link, from what this device holds.
  await user.click(link);
  expect(await screen.findByRole('heading', { name: /Folio 1/ }, { timeout: 5000 })).toBeTruthy();
  expect(screen.queryByText('Page not found')).toBeNull();

  // Once the server made it, a link still naming the temporary id leads to the server's.
  serverUp = true;
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await syncScheduler.kick();
  });
  const created = api.children[folder.id]![0]!;
  await act(() => opened.router.navigate({ to: tempPath }));
  await waitFor(() => expect(opened.router.state.location.pathname).toBe(`/element/${created.id}`));
  expect(await screen.findByRole('heading', { name: /Folio 1/ })).toBeTruthy();
  expect(screen.queryByText('Page not found')).toBeNull();
}, 20_000);
