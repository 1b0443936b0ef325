// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Element } from '@/api/types';
import { localDb } from '@/offline/db';
import { deleteElement, updateElement } from '@/offline/elementEdits';
import {
  CHANGED_AT,
  CONFLICT_DETAIL,
  changeItem,
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

const SAVED_AT = 'Sat, 01 Jun 2024 12:00:00 GMT';

const image = {
  id: 'img-1',
  path: 'img-1.jpg',
  width: 1000,
  height: 1500,
  url: 'https://iiif.example.org/iiif/2/img-1',
  s3_url: null,
  status: 'checked' as const,
  server: {
    display_name: 'Test',
    url: 'https://iiif.example.org/iiif/2',
    max_width: null,
    max_height: null,
  },
};

/** A page someone else renamed (and rotated) after this device read it. */
async function renamedOnBothSides() {
  const folio = makeElement({ name: 'Folio 3' });
  const theirs: Element = { ...folio, name: 'Folio 3 (recto)', rotation_angle: 180 };
  await seedElement(folio, [corpus.id]);
  let server: Element = theirs;
  const api = stubApi({
    [`PATCH /element/${folio.id}/`]: (call: Call) => {
      // The edit is applied only when based on the version the server has now.
      if (call.headers['if-unmodified-since'] !== CHANGED_AT) return changedOnServer(server);
      server = { ...server, ...(call.body as Partial<Element>) };
      return json(200, server, { 'last-modified': SAVED_AT });
    },
  });
  await updateElement(localDb, folio.id, { name: 'Folio 3r' });
  await replay();
  const [entry] = await outbox();
  expect(entry).toMatchObject({
    status: 'conflict',
    current: theirs,
    currentLastModified: CHANGED_AT,
    error: { status: 412, message: CONFLICT_DETAIL },
  });
  return {
    folio,
    theirs,
    api,
    server: () => server,
    label: '“Folio 3” (Page): renamed to “Folio 3r”',
  };
}

async function versionsTable(label: string) {
  const item = await changeItem(label);
  const region = within(item.getByRole('region', { name: "Your version and the server's" }));
  return { item, region, rows: () => region.getAllByRole('row').map(cellTexts) };
}

function cellTexts(row: HTMLElement): string[] {
  return [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '');
}

describe('a conflicting edit', () => {
  it('shows both versions of the fields it changes, side by side', async () => {
    const { label } = await renamedOnBothSides();
    openPendingChanges();
    const { item, rows } = await versionsTable(label);
    expect(item.getByText('Changed on the server')).toBeTruthy();
    expect(rows()).toEqual([
      ['Field', 'Before your edit', 'Yours', 'On the server'],
      ['Name', 'Folio 3', 'Folio 3r', 'Folio 3 (recto) (changed)'],
    ]);
    expect(item.getByRole('button', { name: 'Keep mine' })).toBeTruthy();
    expect(item.getByRole('button', { name: 'Keep theirs' })).toBeTruthy();
    expect(item.getByRole('button', { name: 'Edit a merged value' })).toBeTruthy();
    expect(item.queryByRole('button', { name: 'Discard' })).toBeNull();
    // Nothing was overwritten meanwhile: this device still shows the user's edit.
    expect((await storedElement((await outbox())[0]!.entityId))!.data.name).toBe('Folio 3r');
  });

  it('shows a zone as its point count, a rotation in degrees and mirroring as yes or no', async () => {
    const folio = makeElement({
      name: 'Folio 3',
      zone: {
        id: 'zone-1',
        image,
        url: `${image.url}/0,0,1000,1500/full/0/default.jpg`,
        polygon: [
          [0, 0],
          [0, 1500],
          [1000, 1500],
          [1000, 0],
          [0, 0],
        ],
      },
    });
    await seedElement(folio);
    const theirs: Element = {
      ...folio,
      type: 'act',
      zone: {
        ...folio.zone!,
        polygon: [
          [0, 0],
          [0, 700],
          [500, 700],
          [0, 0],
        ],
      },
    };
    stubApi({ [`PATCH /element/${folio.id}/`]: () => changedOnServer(theirs) });
    await updateElement(localDb, folio.id, {
      type: 'act',
      polygon: [
        [0, 0],
        [0, 750],
        [400, 800],
        [1000, 750],
        [1000, 0],
        [0, 0],
      ],
      rotation_angle: 90,
      mirrored: true,
    });
    await replay();
    openPendingChanges();
    const { rows, item } = await versionsTable(
      '“Folio 3” (Page): type changed to Act, zone reshaped, rotated to 90°, mirrored',
    );
    await waitFor(() =>
      expect(rows()).toEqual([
        ['Field', 'Before your edit', 'Yours', 'On the server'],
        ['Type', 'Page', 'Act', 'Act (changed)'],
        ['Zone', '4 points', '5 points', '3 points (changed)'],
        ['Rotation', '0°', '90°', '0°'],
        ['Mirrored', 'No', 'Yes', 'No'],
      ]),
    );
    // Only a text can be merged by hand.
    expect(item.queryByRole('button', { name: 'Edit a merged value' })).toBeNull();
  });

  it('Keep mine sends the edit over the server version', async () => {
    const { folio, api, server, label } = await renamedOnBothSides();
    const user = userEvent.setup();
    openPendingChanges();
    const { item } = await versionsTable(label);

    // Offline: the edit waits, now based on the server's version.
    await user.click(item.getByRole('button', { name: 'Keep mine' }));
    expect(await item.findByText('Waiting')).toBeTruthy();
    const [entry] = await outbox();
    expect(entry).toMatchObject({ status: 'pending', error: null, attempts: 0 });
    const row = (await storedElement(folio.id))!;
    expect(row.lastModified).toBe(CHANGED_AT);
    expect(row.data.name).toBe('Folio 3r');

    setOnline(true);
    await user.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    const patches = api.callsTo('PATCH', `/element/${folio.id}/`);
    expect(patches).toHaveLength(2);
    expect(patches[1]!.headers['if-unmodified-since']).toBe(CHANGED_AT);
    expect(patches[1]!.body).toEqual({ name: 'Folio 3r' });
    // The server keeps what the user did not touch (the rotation) and takes the new name.
    expect(server()).toMatchObject({ name: 'Folio 3r', rotation_angle: 180 });
    expect(await outbox()).toEqual([]);
    const saved = (await storedElement(folio.id))!;
    expect(saved.data).toMatchObject({ name: 'Folio 3r', rotation_angle: 180 });
    expect(saved.lastModified).toBe(SAVED_AT);
  });

  it('Keep theirs drops the edit and takes the server version', async () => {
    const { folio, api, theirs, label } = await renamedOnBothSides();
    const user = userEvent.setup();
    openPendingChanges();
    const { item } = await versionsTable(label);
    await user.click(item.getByRole('button', { name: 'Keep theirs' }));
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    expect(await outbox()).toEqual([]);
    const row = (await storedElement(folio.id))!;
    expect(row.data).toEqual(theirs);
    expect(row).toMatchObject({ lastModified: CHANGED_AT, full: true, parentIds: [corpus.id] });
    expect(api.callsTo('PATCH', `/element/${folio.id}/`)).toHaveLength(1);
  });

  it('Keep theirs keeps the edits made after the conflicting one', async () => {
    const { folio, theirs, label } = await renamedOnBothSides();
    await updateElement(localDb, folio.id, { mirrored: true });
    const user = userEvent.setup();
    openPendingChanges();
    const { item } = await versionsTable(label);
    await user.click(item.getByRole('button', { name: 'Keep theirs' }));
    await waitFor(async () => expect(await outbox()).toHaveLength(1));
    const [later] = await outbox();
    expect(later).toMatchObject({ status: 'pending', payload: { changes: { mirrored: true } } });
    const row = (await storedElement(folio.id))!;
    expect(row.data).toEqual({ ...theirs, mirrored: true });
    expect(row.lastModified).toBe(CHANGED_AT);
  });

  it('a merged name replaces the edit and goes over the server version', async () => {
    const { folio, api, server, label } = await renamedOnBothSides();
    const user = userEvent.setup();
    openPendingChanges();
    const { item } = await versionsTable(label);
    await user.click(item.getByRole('button', { name: 'Edit a merged value' }));
    const field = item.getByLabelText('Merged name') as HTMLInputElement;
    expect(field.value).toBe('Folio 3r');

    await user.clear(field);
    expect(
      (item.getByRole('button', { name: 'Save merged value' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await user.type(field, 'Folio 3r (recto)');
    await user.click(item.getByRole('button', { name: 'Save merged value' }));

    const merged = await changeItem('“Folio 3” (Page): renamed to “Folio 3r (recto)”');
    expect(await merged.findByText('Waiting')).toBeTruthy();
    const [entry] = await outbox();
    expect(entry).toMatchObject({
      status: 'pending',
      error: null,
      payload: { changes: { name: 'Folio 3r (recto)' } },
      label: '“Folio 3”: rename to “Folio 3r (recto)”',
    });
    const row = (await storedElement(folio.id))!;
    expect(row.data.name).toBe('Folio 3r (recto)');
    expect(row.lastModified).toBe(CHANGED_AT);

    await replay();
    await waitFor(async () => expect(await outbox()).toEqual([]));
    expect(api.callsTo('PATCH', `/element/${folio.id}/`).at(-1)!.body).toEqual({
      name: 'Folio 3r (recto)',
    });
    expect(server().name).toBe('Folio 3r (recto)');
  });
});

describe('a conflicting deletion', () => {
  /** The engine sends deletions unconditionally today: the conflict is the one it would park. */
  async function deletedHereChangedThere() {
    const folio = makeElement({ name: 'Folio 3' });
    await seedElement(folio, [corpus.id]);
    const theirs: Element = { ...folio, name: 'Folio 3 (recto)' };
    const api = stubApi({
      [`DELETE /element/${folio.id}/`]: () => json(204, null),
    });
    await deleteElement(localDb, folio.id);
    const [entry] = await outbox();
    await localDb.outbox.update(entry!.seq!, {
      status: 'conflict',
      attempts: 1,
      current: theirs,
      currentLastModified: CHANGED_AT,
      error: { status: 412, message: CONFLICT_DETAIL },
    });
    return { folio, theirs, api, label: '“Folio 3”', seq: entry!.seq! };
  }

  it('shows what changed on the server and offers to delete anyway or keep the element', async () => {
    const { label } = await deletedHereChangedThere();
    openPendingChanges();
    const { item, rows } = await versionsTable(`${label} (Page): deleted`);
    expect(
      item.getByText(/You deleted this element, and someone changed it on the server since\./),
    ).toBeTruthy();
    await waitFor(() =>
      expect(rows()).toEqual([
        ['Field', 'Before your edit', 'Yours', 'On the server'],
        ['Name', 'Folio 3', 'Deleted', 'Folio 3 (recto) (changed)'],
        ['Type', 'Page', 'Deleted', 'Page'],
      ]),
    );
    expect(item.getByRole('button', { name: 'Delete anyway' })).toBeTruthy();
    expect(item.getByRole('button', { name: 'Keep the element' })).toBeTruthy();
    expect(item.queryByRole('button', { name: 'Edit a merged value' })).toBeNull();
  });

  it('Delete anyway sends the deletion again', async () => {
    const { folio, api, label, seq } = await deletedHereChangedThere();
    const user = userEvent.setup();
    openPendingChanges();
    const { item } = await versionsTable(`${label} (Page): deleted`);
    await user.click(item.getByRole('button', { name: 'Delete anyway' }));
    expect(await item.findByText('Waiting')).toBeTruthy();
    const entry = (await localDb.outbox.get(seq))!;
    expect(entry).toMatchObject({ status: 'pending', error: null });
    // The copy kept to restore the element is now of the server's version.
    expect((entry.previous as { lastModified: string }).lastModified).toBe(CHANGED_AT);
    expect(await storedElement(folio.id)).toBeUndefined();

    await replay();
    await waitFor(async () => expect(await outbox()).toEqual([]));
    expect(api.callsTo('DELETE', `/element/${folio.id}/`)).toHaveLength(1);
  });

  it('Keep the element brings it back as the server has it', async () => {
    const { folio, theirs, label } = await deletedHereChangedThere();
    const user = userEvent.setup();
    openPendingChanges();
    const { item } = await versionsTable(`${label} (Page): deleted`);
    await user.click(item.getByRole('button', { name: 'Keep the element' }));
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    expect(await outbox()).toEqual([]);
    const row = (await storedElement(folio.id))!;
    expect(row.data).toEqual(theirs);
    expect(row).toMatchObject({ lastModified: CHANGED_AT, parentIds: [corpus.id] });
  });
});
