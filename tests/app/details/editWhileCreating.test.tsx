// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { expect, it, onTestFinished } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { isTempId } from '@/offline/outboxEntry';
import { syncScheduler } from '@/offline/runtime';
import { apiError } from '../support/harness';
import { detailsApi, isolateDetailsTests, openDetails, uuid } from '../support/details';

isolateDetailsTests();

it('keeps the edit form of a new transcription, and its text, when the server gives its id', async () => {
  const elementId = uuid();
  let posts = 0;
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const { element, api, state } = detailsApi({
    element: { id: elementId },
    overrides: {
      // The creation is answered 503 first (kept on the device), then, retried, late.
      [`POST /element/${elementId}/transcription/`]: async () => {
        posts += 1;
        if (posts === 1) return apiError(503, [{ attr: null, detail: 'Unavailable.' }]);
        await answered;
        return null;
      },
    },
  });
  const { panel, user, queryClient } = await openDetails(element.id);
  // As the running app does after a run that applied edits: pages read the store again.
  syncScheduler.onSynced = () => void queryClient.invalidateQueries();
  onTestFinished(() => {
    syncScheduler.onSynced = null;
  });
  const form = within(panel).getByRole('region', { name: 'New transcription' });
  await user.type(within(form).getByLabelText('Text'), 'Ledger');
  await user.click(within(form).getByRole('button', { name: 'Create' }));
  const section = within(panel).getByRole('region', { name: 'Transcriptions' });
  const [item] = await within(section).findAllByRole('listitem');
  await user.click(within(item!).getByRole('button', { name: 'Edit' }));
  const text = within(section).getByLabelText('Text');
  await user.clear(text);
  await user.type(text, 'Ledger of 1789');

  // The creation, retried once its backoff is over, reaches the server while the form is open.
  await new Promise((resolve) => setTimeout(resolve, 1300));
  const retry = syncScheduler.kick();
  await waitFor(() => expect(posts).toBe(2));
  await act(async () => {
    answer();
    await retry;
  });
  // The panel now lists it under the server's id.
  await waitFor(() => {
    const shown = queryClient.getQueryData<{ id: string }[]>(['transcriptions', elementId]);
    expect(shown?.map((item) => isTempId(item.id))).toEqual([false]);
  });
  const serverId = state.transcriptions[0]!.id;
  const editing = within(section).getByLabelText('Text') as HTMLTextAreaElement;
  expect(editing.value).toBe('Ledger of 1789');
  await user.click(within(section).getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Transcription updated.')).toBeTruthy();
  await waitFor(() => expect(state.transcriptions[0]!.text).toBe('Ledger of 1789'));
  expect(
    api.calls.filter((call) => call.method === 'PATCH').map((call) => [call.path, call.body]),
  ).toEqual([
    [`/transcription/${serverId}/`, { text: 'Ledger of 1789', orientation: 'horizontal-lr' }],
  ]);
  // The form is done with its submit (it closes): nothing of it runs after the test's window.
  await waitFor(() => expect(within(section).queryByRole('button', { name: 'Save' })).toBeNull());
}, 20_000);
