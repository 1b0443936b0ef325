import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { LocalSelection, selectedRows } from '@/offline/selection';
import { createStore } from '@/lib/store';
import type { Connectivity } from '@/offline/connectivity';
import { elementWith } from '../app/support/fixtures';

describe('local database version 6', () => {
  it('adds the selection to a version 5 database, keeping its data, and keeps one user at a time', async () => {
    const name = `folia-v5-${randomUUID()}`;
    const v5 = new Dexie(name);
    v5.version(1).stores({ queries: 'key' });
    v5.version(2).stores({
      elements: 'id, corpusId, *parentIds',
      outbox: '++seq, entityId, status',
    });
    v5.version(3).stores({ outbox: '++seq, entityId, status, *refIds' });
    v5.version(4).stores({ packs: 'id, createdAt', packTiles: '[packId+url], packId, url' });
    v5.version(5).stores({ elementSets: 'id, *datasetIds' });
    await v5.table('elements').put({ id: 'page-1', corpusId: 'c', parentIds: ['folder-1'] });
    await v5.table('elementSets').put({ id: 'page-1', sets: [], datasetIds: ['d-1'], savedAt: 1 });
    v5.close();

    const db = new FoliaDatabase(name);
    expect(db.verno).toBeGreaterThanOrEqual(6);
    expect((await db.elements.get('page-1'))?.parentIds).toEqual(['folder-1']);
    expect((await db.elementSets.get('page-1'))?.datasetIds).toEqual(['d-1']);

    // Offline, so nothing is sent: only this device's copy changes.
    const connectivity = { store: createStore<Connectivity>({ online: false, checkedAt: null }) };
    const project = { id: 'c', name: 'Letters' };
    const ada = new LocalSelection(db, connectivity);
    await ada.open('ada');
    await ada.toggle(
      elementWith({ id: 'page-1', name: 'Folio 1', type: 'page', corpus: { id: 'c' } }),
      project,
    );
    expect(await db.selection.where('userId').equals('ada').count()).toBe(1);

    // Another user logs in on this device: Ada's selection is not theirs to see or send.
    const grace = new LocalSelection(db, connectivity);
    await grace.open('grace');
    expect(selectedRows(grace.store.get())).toEqual([]);
    expect(await db.selection.count()).toBe(0);
    await db.delete();
  });
});
