// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Dataset } from '@/api/datasets';
import type { Corpus } from '@/api/types';
import { connectivity } from '@/offline/runtime';
import {
  fakeServer,
  isolateEachTest,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  renderNavigation,
} from '../navigation/harness';

isolateEachTest();

function dataset(corpus: Corpus): Dataset {
  return {
    id: '00000000-0000-4000-8c00-0000000da7a5',
    name: 'Handwriting',
    description: 'Lines',
    state: 'open',
    sets: [
      { id: '00000000-0000-4000-8c00-000000000001', name: 'train' },
      { id: '00000000-0000-4000-8c00-000000000002', name: 'dev' },
      { id: '00000000-0000-4000-8c00-000000000003', name: 'test' },
    ],
    set_elements: { train: 0, dev: 0, test: 0 },
    unique_elements: true,
    corpus_id: corpus.id,
    creator: null,
    task_id: null,
    created: '2024-05-01T10:00:00Z',
    updated: '2024-05-01T10:00:00Z',
  };
}

function serve(corpus: Corpus) {
  return fakeServer({
    corpora: [corpus],
    elements: { [corpus.id]: [makeElement({ name: 'Folio 1' })] },
    overrides: {
      [`GET /corpus/${corpus.id}/datasets/`]: () =>
        json(200, { count: 1, number: 1, next: null, previous: null, results: [dataset(corpus)] }),
    },
  });
}

const populateButton = () => screen.findByRole('button', { name: 'Populate a dataset' });

describe('Populate a dataset on the project page', () => {
  it("opens the populate modal with the list's filters", async () => {
    const corpus = makeCorpus({ rights: ['read', 'write'] });
    serve(corpus);
    const user = userEvent.setup();
    renderNavigation(`/browse/${corpus.id}?type=page&name=Folio&recursive=true&page=1`, makeUser());
    await screen.findByRole('link', { name: 'Folio 1' });
    await user.click(await populateButton());

    const modal = await screen.findByRole('dialog', { name: 'Populate dataset' });
    await within(modal).findByLabelText('train');
    expect((within(modal).getByLabelText('Page') as HTMLInputElement).checked).toBe(true);
    expect((within(modal).getByLabelText('Recursive') as HTMLInputElement).checked).toBe(true);
    const ignored = within(modal).getByRole('list', {
      name: 'These filters of the list cannot be used and are ignored:',
    });
    expect(
      within(ignored)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Name: Folio']);
  });

  it('says why it is not offered to readers, unverified writers, or offline', async () => {
    const reader = makeCorpus({ rights: ['read'] });
    serve(reader);
    const user = userEvent.setup();
    renderNavigation(`/browse/${reader.id}?type=page`, makeUser());
    const button = await populateButton();
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.title).toBe(
      'You must have a contributor access in order to perform this action.',
    );
    await user.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    const writer = makeCorpus({ rights: ['read', 'write'] });
    serve(writer);
    renderNavigation(`/browse/${writer.id}?type=page`, makeUser({ verified_email: false }));
    expect((await populateButton()).title).toBe('Your email address should be verified');
    cleanup();

    renderNavigation(`/browse/${writer.id}?type=page`, makeUser());
    await populateButton();
    connectivity.store.set({ online: false, checkedAt: null });
    await waitFor(async () => expect((await populateButton()).title).toBe('Needs the network'));
  });
});
