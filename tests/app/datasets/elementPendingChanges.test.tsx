// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { inDb } from '@/offline/datasetQueue';
import { localDb } from '@/offline/db';
import {
  changeItem,
  corpus,
  isolateSyncTests,
  json,
  makeElement,
  openPendingChanges,
  outbox,
  replay,
  seedElement,
  stubApi,
} from '../sync/harness';
import { makeDataset } from './populateHarness';

isolateSyncTests();

const NOT_OPEN = 'Only open datasets can be edited';

describe('Dataset edits in Pending changes', () => {
  it('are described, a refusal shown with the server’s words, and a discard puts the set back', async () => {
    const folio = makeElement({ name: 'Folio 3' });
    await seedElement(folio);
    const lines = makeDataset(corpus, { name: 'Lines', state: 'complete' });
    const pages = makeDataset(corpus, { name: 'Pages' });
    const pagesTest = pages.sets.find((set) => set.name === 'test')!;
    stubApi({
      [`POST /datasets/${lines.id}/elements/`]: () =>
        json(400, {
          type: 'validation_error',
          errors: [{ code: 'invalid', detail: NOT_OPEN, attr: null }],
        }),
    });
    await inDb.addElementToSet(localDb, {
      dataset: lines,
      set: 'train',
      element: { id: folio.id, name: folio.name, type: folio.type },
    });
    await inDb.renameSet(localDb, { dataset: pages, setId: pagesTest.id, name: 'held-out' });
    await replay();
    expect((await outbox()).map((entry) => entry.status)).toEqual(['failed', 'pending']);

    openPendingChanges();
    await changeItem('Dataset “Pages”: set “test” renamed to “held-out”');
    const refused = await changeItem('“Folio 3” (Page): added to set train of “Lines”');
    expect(refused.getByText(`Refused by the server: ${NOT_OPEN}`)).toBeTruthy();

    expect((await localDb.elementSets.get(folio.id))?.sets).toMatchObject([
      { dataset: { id: lines.id }, set: 'train' },
    ]);
    const user = userEvent.setup();
    await user.click(refused.getByRole('button', { name: 'Discard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard this change?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(async () => expect((await localDb.elementSets.get(folio.id))?.sets).toEqual([]));
    expect((await outbox()).map((entry) => entry.kind)).toEqual(['dataset.set.rename']);
  });
});
