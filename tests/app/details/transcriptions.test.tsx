// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { blockedHint } from '@/features/transcriptions/TranscriptionForm';
import { apiError } from '../support/harness';
import {
  FILE_IMPORT,
  detailsApi,
  isolateDetailsTests,
  json,
  openDetails,
  transcription,
  uuid,
} from '../support/details';

isolateDetailsTests();

const TEXT_HINT = 'A valid text is required to create the transcription';

async function transcriptionsOf(elementId: string) {
  const opened = await openDetails(elementId);
  const section = within(opened.panel).getByRole('region', { name: 'Transcriptions' });
  return { ...opened, section };
}

/** The list items of the Transcriptions section, once loaded. */
async function items(section: HTMLElement) {
  return within(section).findAllByRole('listitem');
}

describe('Transcriptions', () => {
  it('show right-to-left text right to left, and who made each', async () => {
    const { element } = detailsApi({
      transcriptions: [
        transcription({ text: 'Ledger', orientation: 'horizontal-lr' }),
        transcription({
          text: 'دفتر الحسابات',
          orientation: 'horizontal-rl',
          worker_run: FILE_IMPORT,
        }),
      ],
    });
    const { section } = await transcriptionsOf(element.id);
    const [ledger, arabic] = await items(section);
    expect(within(ledger!).getByText('Ledger').getAttribute('dir')).toBe('ltr');
    expect(within(ledger!).getByText('Manual')).toBeTruthy();
    expect(within(arabic!).getByText('دفتر الحسابات').getAttribute('dir')).toBe('rtl');
    expect(within(arabic!).getByRole('button', { name: 'Worker File import @ 1' })).toBeTruthy();
    // A manual one is edited; a worker run's is copied.
    expect(within(ledger!).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(ledger!).queryByRole('button', { name: 'Copy' })).toBeNull();
    expect(within(arabic!).getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(within(arabic!).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it("copy a worker run's transcription into a manual one", async () => {
    const { element, api, state } = detailsApi({
      transcriptions: [transcription({ text: 'Imported line', worker_run: FILE_IMPORT })],
    });
    const { section, user } = await transcriptionsOf(element.id);
    const [imported] = await items(section);
    await user.click(within(imported!).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Transcription copied to a manual transcription')).toBeTruthy();
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(2));
    const copy = within(section).getAllByRole('listitem')[1]!;
    expect(within(copy).getByText('Imported line')).toBeTruthy();
    expect(within(copy).getByText('Manual')).toBeTruthy();
    const posts = api.calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.path, call.body])).toEqual([
      [
        `/element/${element.id}/transcription/`,
        { text: 'Imported line', orientation: 'horizontal-lr' },
      ],
    ]);
    expect(state.transcriptions).toHaveLength(2);
  });

  it('cannot be edited once entities point into them', async () => {
    const used = transcription({ text: 'Jean Dupont, notary', entity_count: 1 });
    const { element, api } = detailsApi({
      transcriptions: [used],
      overrides: {
        [`GET /transcription/${used.id}/entities/`]: () =>
          json(200, {
            count: 1,
            next: null,
            previous: null,
            results: [
              {
                type: { id: uuid(), name: 'person', color: 'ff0000' },
                offset: 0,
                length: 11,
                confidence: null,
                worker_run: null,
              },
            ],
          }),
      },
    });
    const { section, user } = await transcriptionsOf(element.id);
    const [item] = await items(section);
    // The entity is highlighted with its type.
    expect((await within(item!).findByTitle('person')).textContent).toBe('Jean Dupont');
    const edit = within(item!).getByRole('button', { name: 'Edit' });
    expect(edit.getAttribute('aria-disabled')).toBe('true');
    expect(edit.title).toBe('This transcription is used by entities and cannot be edited');
    await user.click(edit);
    expect(within(item!).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(api.calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('are edited in place, Enter saving', async () => {
    const line = transcription({ text: 'Ledger of the yeer 1789' });
    const { element, api } = detailsApi({ transcriptions: [line] });
    const { section, user } = await transcriptionsOf(element.id);
    const [item] = await items(section);
    await user.click(within(item!).getByRole('button', { name: 'Edit' }));
    const text = within(item!).getByLabelText('Text');
    await user.clear(text);
    await user.type(text, 'Ledger of the year 1789{Enter}');
    expect(await screen.findByText('Transcription updated.')).toBeTruthy();
    expect(await within(section).findByText('Ledger of the year 1789')).toBeTruthy();
    await waitFor(() => expect(within(section).queryByLabelText('Text')).toBeNull());
    expect(
      api.calls.filter((call) => call.method === 'PATCH').map((c) => [c.path, c.body]),
    ).toEqual([
      [
        `/transcription/${line.id}/`,
        { text: 'Ledger of the year 1789', orientation: 'horizontal-lr' },
      ],
    ]);
  });

  it('are deleted by a contributor when manual', async () => {
    const line = transcription({ text: 'To be removed' });
    const { element, api } = detailsApi({ rights: ['read', 'write'], transcriptions: [line] });
    const { section, user } = await transcriptionsOf(element.id);
    const [item] = await items(section);
    await user.click(within(item!).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Transcription deleted.')).toBeTruthy();
    expect(await within(section).findByText('No transcription')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'DELETE').map((c) => c.path)).toEqual([
      `/transcription/${line.id}/`,
    ]);
  });

  it('say which right deleting, copying and creating need', async () => {
    const manual = transcription({ text: 'Manual line' });
    const imported = transcription({ text: 'Imported line', worker_run: FILE_IMPORT });
    const reader = detailsApi({ rights: ['read'], transcriptions: [manual, imported] });
    const { section, panel, user, unmount } = await transcriptionsOf(reader.element.id);
    const [first, second] = await items(section);
    const remove = within(first!).getByRole('button', { name: 'Delete' });
    expect(remove.getAttribute('aria-disabled')).toBe('true');
    expect(remove.title).toBe('A write right on the project is required to delete a transcription');
    const copy = within(second!).getByRole('button', { name: 'Copy' });
    expect(copy.title).toBe('A write right on the project is required to copy a transcription');
    await user.click(remove);
    await user.click(copy);
    // Write only: a reader has no new transcription form.
    expect(within(panel).queryByRole('region', { name: 'New transcription' })).toBeNull();
    expect(reader.api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
    unmount();

    const contributor = detailsApi({
      rights: ['read', 'write'],
      transcriptions: [manual, imported],
    });
    const opened = await transcriptionsOf(contributor.element.id);
    const [mine, theirs] = await items(opened.section);
    expect(
      within(mine!).getByRole('button', { name: 'Delete' }).getAttribute('aria-disabled'),
    ).toBe('false');
    const guarded = within(theirs!).getByRole('button', { name: 'Delete' });
    expect(guarded.getAttribute('aria-disabled')).toBe('true');
    expect(guarded.title).toBe(
      'An admin right on the project is required to delete a transcription with a worker run',
    );
    expect(
      within(theirs!).getByRole('button', { name: 'Copy' }).getAttribute('aria-disabled'),
    ).toBe('false');
  });

  it('are deleted by an admin even when a worker run made them', async () => {
    const imported = transcription({ text: 'Imported line', worker_run: FILE_IMPORT });
    const { element, api } = detailsApi({ transcriptions: [imported] });
    const { section, user } = await transcriptionsOf(element.id);
    const [item] = await items(section);
    await user.click(within(item!).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Transcription deleted.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});

describe('The new transcription form', () => {
  it('says why it cannot be sent, and Enter alone sends it', async () => {
    const { element, api } = detailsApi();
    const { panel, user } = await openDetails(element.id);
    const form = within(panel).getByRole('region', { name: 'New transcription' });
    const create = within(form).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    expect(create.title).toBe(TEXT_HINT);
    const text = within(form).getByLabelText('Text') as HTMLTextAreaElement;
    await user.type(text, '   ');
    expect(create.disabled).toBe(true);
    expect(create.title).toBe(TEXT_HINT);
    // Enter on a blank text sends nothing.
    await user.type(text, '{Enter}');
    await user.clear(text);

    await user.type(text, 'First line{Shift>}{Enter}{/Shift}second line');
    expect(text.value).toBe('First line\nsecond line');
    expect(create.disabled).toBe(false);
    expect(create.title).toBe('');
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);

    await user.selectOptions(within(form).getByLabelText('Orientation'), 'Right to left');
    expect(text.getAttribute('dir')).toBe('rtl');
    await user.type(text, '{Enter}');
    expect(await screen.findByText('Transcription created.')).toBeTruthy();
    const section = within(panel).getByRole('region', { name: 'Transcriptions' });
    expect(
      await within(section).findByText(
        (_, node) => node?.textContent === 'First line\nsecond line' && node.tagName === 'P',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(text.value).toBe(''));
    expect(api.calls.filter((call) => call.method === 'POST').map((c) => c.body)).toEqual([
      { text: 'First line\nsecond line', orientation: 'horizontal-rl' },
    ]);
  });

  it('keeps the text when the server refuses it', async () => {
    const id = uuid();
    const { element } = detailsApi({
      element: { id },
      overrides: {
        [`POST /element/${id}/transcription/`]: () =>
          apiError(400, [
            { attr: 'text', detail: 'Ensure this field has no more than 100000 characters.' },
          ]),
      },
    });
    const { panel, user } = await openDetails(element.id);
    const form = within(panel).getByRole('region', { name: 'New transcription' });
    const text = within(form).getByLabelText('Text') as HTMLTextAreaElement;
    await user.type(text, 'Too long, say{Enter}');
    expect(
      await screen.findByText(
        'An error occurred during transcription creation: Ensure this field has no more than 100000 characters.',
      ),
    ).toBeTruthy();
    expect(text.value).toBe('Too long, say');
    const section = within(panel).getByRole('region', { name: 'Transcriptions' });
    expect(await within(section).findByText('No transcription')).toBeTruthy();
  });

  it('names what is missing: the text, the orientation, or both', () => {
    expect(blockedHint('', 'horizontal-lr')).toBe(TEXT_HINT);
    expect(blockedHint('Text', 'diagonal')).toBe('A valid text orientation is required');
    expect(blockedHint(' ', '')).toBe('Please fill out the creation form');
    expect(blockedHint('Text', 'vertical-rl')).toBeNull();
  });
});
