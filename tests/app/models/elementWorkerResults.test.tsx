// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { pageOf } from '../support/harness';
import { elementsApi, json, makeCorpus, makeElement } from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { menuEntry, openElement, openModal } from '../support/elementMenu';

isolateElementPageTests();

type Rights = ('read' | 'write' | 'admin')[];

/** A volume of the project, with the answers the worker results modal reads and sends. */
function volumeOf(rights: Rights) {
  const corpus = makeCorpus({ rights });
  const volume = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const empty = () =>
    json(
      200,
      pageOf([], 1, 500, () => ''),
    );
  const api = elementsApi({
    corpus,
    elements: [volume],
    neighbours: { [volume.id]: [{ path: [], ordering: 0, previous: null, next: null }] },
    overrides: {
      [`GET /corpus/${corpus.id}/versions/`]: empty,
      'GET /models/': empty,
      [`DELETE /corpus/${corpus.id}/worker-results/`]: () => json(204, null),
    },
  });
  return { corpus, volume, api };
}

describe("an element's Processes menu", () => {
  it('lets a project admin delete the worker results under the element', async () => {
    const { corpus, volume, api } = volumeOf(['read', 'write', 'admin']);
    const user = userEvent.setup();
    openElement(volume.id);
    const dialog = within(
      await openModal(user, 'Processes', 'Delete worker results', 'Delete worker results'),
    );
    expect(dialog.getByText('Volume 1')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Worker results deletion has been scheduled.')).toBeTruthy();
    const sent = api.calls.filter(
      (call) => call.method === 'DELETE' && call.path === `/corpus/${corpus.id}/worker-results/`,
    );
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(sent[0]!.query.entries())).toEqual({ element_id: volume.id });
  });

  it('tells a contributor the admin right is needed', async () => {
    const { volume, api } = volumeOf(['read', 'write']);
    const user = userEvent.setup();
    openElement(volume.id);
    const entry = await menuEntry(user, 'Processes', 'Delete worker results');
    expect(entry.getAttribute('aria-disabled')).toBe('true');
    expect(entry.getAttribute('title')).toBe('You must have an admin access to this project');
    await user.click(entry);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Delete worker results' })).toBeNull(),
    );
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });
});
