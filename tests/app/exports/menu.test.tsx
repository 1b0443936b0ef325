// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { elementsApi, json, makeCorpus, makeElement, makeUser } from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { openElement, openModal } from '../support/elementMenu';

isolateElementPageTests();

describe("The element page's Import/Export menu", () => {
  it("opens the project's exports", async () => {
    const corpus = makeCorpus();
    const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
    elementsApi({
      corpus,
      elements: [folder],
      overrides: {
        [`GET /corpus/${corpus.id}/export/`]: () =>
          json(200, {
            count: 1,
            number: 1,
            next: null,
            previous: null,
            results: [
              {
                id: '00000000-0000-4000-9e00-000000000001',
                created: '2024-05-01T10:00:00Z',
                updated: '2024-05-01T10:05:00Z',
                corpus_id: corpus.id,
                user: { id: 'u', email: 'grace@example.org', display_name: 'Grace Hopper' },
                state: 'done',
                source: 'default',
              },
            ],
          }),
      },
    });
    const user = userEvent.setup();
    openElement(folder.id, makeUser());
    const modal = await openModal(user, 'Import/Export', 'Project exports', 'Project exports');
    expect(await within(modal).findByText('Grace Hopper')).toBeTruthy();
    expect(within(modal).getByRole('link', { name: 'Download' })).toBeTruthy();
  });

  it('opens the export of the element to a file, for a project admin', async () => {
    const corpus = makeCorpus();
    const folder = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
    elementsApi({ corpus, elements: [folder] });
    const user = userEvent.setup();
    openElement(folder.id, makeUser());
    const modal = await openModal(user, 'Import/Export', 'Export to a file', 'Export to a file');
    expect(within(modal).getByRole('region', { name: 'Elements' }).textContent).toContain(
      'Volume 1',
    );
    // This server offers no format: nothing can be sent.
    expect(within(modal).getByText('No export format is available on this server.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
  });
});
