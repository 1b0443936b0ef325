// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { localDb } from '@/offline/db';
import { createElement, updateElement } from '@/offline/elementEdits';
import {
  changeItem,
  changeList,
  changedOnServer,
  corpus,
  isolateSyncTests,
  json,
  makeElement,
  openPendingChanges,
  outbox,
  replay,
  seedElement,
  setOnline,
  storedElement,
  stubApi,
  type Call,
} from './harness';

isolateSyncTests();

const refused = (detail: string) =>
  json(400, {
    type: 'validation_error',
    errors: [{ code: 'invalid', detail, attr: 'type' }],
  });

/** PATCH /element/{id}/ as the API applies it: the element with the changes. */
const saves =
  (element: ReturnType<typeof makeElement>) =>
  (call: Call): Response =>
    json(
      200,
      { ...element, ...(call.body as object) },
      {
        'last-modified': 'Sat, 01 Jun 2024 12:00:00 GMT',
      },
    );

describe('the Pending changes panel', () => {
  it('says everything is saved, and when it last synced, when nothing waits', async () => {
    stubApi();
    await localDb.syncState.put({ key: 'lastSync', at: Date.now() - 120_000 });
    openPendingChanges();
    expect(await screen.findByRole('heading', { name: 'Pending changes' })).toBeTruthy();
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    expect(screen.getByText('Last synced 2 minutes ago')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Pending changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download as file' })).toBeNull();
  });

  it('says when this browser never synced', async () => {
    stubApi();
    openPendingChanges();
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    expect(screen.getByText('Not synced from this browser yet')).toBeTruthy();
  });

  it('lists the queued edits in order, with their project, age and state', async () => {
    const act = makeElement({ name: 'Act 12', type: 'act' });
    const folio = makeElement({ name: 'Folio 3' });
    const other = makeElement({ name: 'Folio 4' });
    await Promise.all([seedElement(act), seedElement(folio), seedElement(other)]);
    stubApi({
      [`PATCH /element/${act.id}/`]: () => refused("Type 'no_such' not found."),
      [`PATCH /element/${folio.id}/`]: () => changedOnServer({ ...folio, name: 'Folio 3 (recto)' }),
    });
    await updateElement(localDb, act.id, { type: 'no_such' });
    await updateElement(localDb, folio.id, { name: 'Folio 3r' });
    await replay();
    await createElement(localDb, {
      corpus: corpus.id,
      parent: null,
      type: 'folder',
      name: 'Box 1',
    });
    await updateElement(localDb, other.id, { name: 'Folio 4v' });
    // Another tab is sending this one.
    const sending = (await outbox()).at(-1)!;
    await localDb.outbox.update(sending.seq!, {
      status: 'sending',
      createdAt: Date.now() - 120_000,
    });

    openPendingChanges();
    const list = await changeList();
    await waitFor(() =>
      expect(
        list.getAllByRole('listitem').map((item) => item.querySelector('p')!.textContent),
      ).toEqual([
        '“Act 12” (Act): type changed to no_such',
        '“Folio 3” (Page): renamed to “Folio 3r”',
        '“Box 1” (Folder): created',
        '“Folio 4” (Page): renamed to “Folio 4v”',
      ]),
    );
    expect(
      screen.getByText('4 changes are not on the server yet. 2 need your attention.'),
    ).toBeTruthy();

    const failed = await changeItem('“Act 12” (Act): type changed to no_such');
    expect(failed.getByText("Refused by the server: Type 'no_such' not found.")).toBeTruthy();
    expect(await failed.findByText(/^Registers of Le Creusot · Queued/)).toBeTruthy();
    expect(failed.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(failed.getByRole('button', { name: 'Discard' })).toBeTruthy();

    const conflict = await changeItem('“Folio 3” (Page): renamed to “Folio 3r”');
    expect(conflict.getByText('Changed on the server')).toBeTruthy();
    expect(conflict.getByRole('button', { name: 'Keep mine' })).toBeTruthy();
    expect(conflict.queryByRole('button', { name: 'Retry' })).toBeNull();

    const waiting = await changeItem('“Box 1” (Folder): created');
    expect(waiting.getByText('Waiting')).toBeTruthy();
    expect(waiting.getByRole('button', { name: 'Discard' })).toBeTruthy();
    expect(waiting.queryByRole('button', { name: 'Retry' })).toBeNull();

    const inFlight = await changeItem('“Folio 4” (Page): renamed to “Folio 4v”');
    expect(inFlight.getByText('Sending')).toBeTruthy();
    expect(inFlight.getByText('2 minutes ago')).toBeTruthy();
    expect(inFlight.queryByRole('button', { name: 'Discard' })).toBeNull();

    // Offline: nothing can be sent now, and the panel says why.
    expect(screen.queryByRole('button', { name: 'Send now' })).toBeNull();
    expect(
      screen.getByText('You are offline: waiting changes are sent when the network returns.'),
    ).toBeTruthy();
  });

  it('names the project as the local store knows it when the project cannot be loaded', async () => {
    await seedElement(makeElement({ name: 'Folio 3' }));
    stubApi({ [`GET /corpus/${corpus.id}/`]: () => json(503, null) });
    await createElement(localDb, {
      corpus: corpus.id,
      parent: null,
      type: 'folder',
      name: 'Box 1',
    });
    await createElement(localDb, {
      corpus: 'a-project-never-seen',
      parent: null,
      type: 'folder',
      name: 'Box 2',
    });
    openPendingChanges();
    const known = await changeItem('“Box 1” (Folder): created');
    expect(await known.findByText(/^Registers of Le Creusot · Queued/)).toBeTruthy();
    const unknown = await changeItem('“Box 2” (folder): created');
    expect(unknown.getByText(/^Unknown project · Queued/)).toBeTruthy();
  });

  it('puts the element back as it was when an edit is discarded, after asking', async () => {
    const folio = makeElement({ name: 'Folio 3' });
    await seedElement(folio);
    stubApi();
    await updateElement(localDb, folio.id, { name: 'Folio 3r', rotation_angle: 90 });
    expect((await storedElement(folio.id))!.data).toMatchObject({
      name: 'Folio 3r',
      rotation_angle: 90,
    });
    const user = userEvent.setup();
    openPendingChanges();
    const item = await changeItem('“Folio 3” (Page): renamed to “Folio 3r”, rotated to 90°');

    await user.click(item.getByRole('button', { name: 'Discard' }));
    let dialog = await screen.findByRole('dialog', { name: 'Discard this change?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await outbox()).toHaveLength(1);

    await user.click(item.getByRole('button', { name: 'Discard' }));
    dialog = await screen.findByRole('dialog', { name: 'Discard this change?' });
    expect(dialog.textContent).toContain('will not be sent to the server');
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));

    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    expect(await outbox()).toEqual([]);
    const restored = (await storedElement(folio.id))!;
    expect(restored.data).toMatchObject({ name: 'Folio 3', rotation_angle: 0 });
    expect(restored.lastModified).toBe('Sat, 01 Jun 2024 10:00:00 GMT');
  });

  it('takes a folder created offline away from the store when its creation is discarded', async () => {
    stubApi();
    const id = await createElement(localDb, {
      corpus: corpus.id,
      parent: null,
      type: 'folder',
      name: 'Box 1',
    });
    await updateElement(localDb, id, { name: 'Box 1, sorted' });
    const user = userEvent.setup();
    openPendingChanges();
    const item = await changeItem('“Box 1, sorted” (Folder): created');
    await user.click(item.getByRole('button', { name: 'Discard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard this change?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(async () => expect(await outbox()).toEqual([]));
    expect(await storedElement(id)).toBeUndefined();
  });

  it('gives a refused edit another try with a new key, sent when the API answers', async () => {
    const act = makeElement({ name: 'Act 12', type: 'act' });
    await seedElement(act);
    let refuse = true;
    const api = stubApi({
      [`PATCH /element/${act.id}/`]: (call) =>
        refuse ? refused('Someone must fix this first.') : saves(act)(call),
    });
    await updateElement(localDb, act.id, { type: 'page' });
    await replay();
    const [failed] = await outbox();
    expect(failed).toMatchObject({ status: 'failed', error: { status: 400 } });

    const user = userEvent.setup();
    openPendingChanges();
    let item = await changeItem('“Act 12” (Act): type changed to Page');
    expect(item.getByText('Refused by the server: Someone must fix this first.')).toBeTruthy();

    // Offline, Retry puts it back in the queue.
    await user.click(item.getByRole('button', { name: 'Retry' }));
    expect(await item.findByText('Waiting')).toBeTruthy();
    const [retried] = await outbox();
    expect(retried).toMatchObject({
      status: 'pending',
      attempts: 0,
      error: null,
      nextAttemptAt: 0,
    });
    expect(retried!.idempotencyKey).not.toBe(failed!.idempotencyKey);

    // Refused again, then fixed on the server's side: online, Retry sends it at once.
    await replay();
    item = await changeItem('“Act 12” (Act): type changed to Page');
    await item.findByText('Refused by the server: Someone must fix this first.');
    refuse = false;
    setOnline(true);
    await user.click(item.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    expect(await outbox()).toEqual([]);
    expect(api.callsTo('PATCH', `/element/${act.id}/`)).toHaveLength(3);
    expect((await storedElement(act.id))!.data.type).toBe('page');
  });

  it('sends the waiting edits when asked, once online', async () => {
    const folio = makeElement({ name: 'Folio 3' });
    await seedElement(folio);
    const api = stubApi({ [`PATCH /element/${folio.id}/`]: saves(folio) });
    await updateElement(localDb, folio.id, { name: 'Folio 3r' });
    const user = userEvent.setup();
    openPendingChanges();
    await changeItem('“Folio 3” (Page): renamed to “Folio 3r”');
    expect(screen.queryByRole('button', { name: 'Send now' })).toBeNull();

    setOnline(true);
    await user.click(await screen.findByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    expect(screen.getByText('Last synced 0 seconds ago')).toBeTruthy();
    expect(api.callsTo('PATCH', `/element/${folio.id}/`)).toHaveLength(1);
    expect(await outbox()).toEqual([]);
  });

  describe('Download as file', () => {
    afterEach(() => vi.restoreAllMocks());

    it('saves every queued edit as a JSON file', async () => {
      const act = makeElement({ name: 'Act 12', type: 'act' });
      await seedElement(act);
      stubApi({ [`PATCH /element/${act.id}/`]: () => refused('Not a type of this project.') });
      await updateElement(localDb, act.id, { type: 'no_such' });
      await replay();
      await createElement(localDb, {
        corpus: corpus.id,
        parent: null,
        type: 'folder',
        name: 'Box 1',
      });

      const files: Blob[] = [];
      const saved: { download: string; href: string }[] = [];
      Object.assign(URL, {
        createObjectURL: vi.fn((blob: Blob) => {
          files.push(blob);
          return 'blob:pending-changes';
        }),
        revokeObjectURL: vi.fn(),
      });
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        saved.push({ download: this.download, href: this.href });
      });

      const user = userEvent.setup();
      openPendingChanges();
      await changeItem('“Box 1” (Folder): created');
      await user.click(screen.getByRole('button', { name: 'Download as file' }));

      expect(saved).toHaveLength(1);
      expect(saved[0]!.href).toBe('blob:pending-changes');
      expect(saved[0]!.download).toMatch(/^folia-pending-changes-\d{4}-\d\d-\d\dT[\d-]+\.json$/);
      expect(files[0]!.type).toBe('application/json');
      const file = JSON.parse(await files[0]!.text());
      const entries = await outbox();
      expect(file.changes).toEqual([
        {
          kind: 'element.update',
          label: '“Act 12” (act): type changed to no_such',
          element: act.id,
          project: corpus.id,
          payload: { changes: { type: 'no_such' } },
          status: 'failed',
          error: {
            status: 400,
            message: 'Not a type of this project.',
            fields: { type: ['Not a type of this project.'] },
          },
          createdAt: new Date(entries[0]!.createdAt).toISOString(),
        },
        {
          kind: 'element.create',
          label: '“Box 1” (folder): created',
          element: entries[1]!.entityId,
          project: corpus.id,
          payload: { corpus: corpus.id, parent: null, type: 'folder', name: 'Box 1' },
          status: 'pending',
          error: null,
          createdAt: new Date(entries[1]!.createdAt).toISOString(),
        },
      ]);
      expect(Date.parse(file.exportedAt)).not.toBeNaN();
    });
  });
});
