import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';

describe('local database version 5', () => {
  it('adds the element dataset sets to a version 4 database, keeping its data', async () => {
    const name = `folia-v4-${randomUUID()}`;
    const v4 = new Dexie(name);
    v4.version(1).stores({ queries: 'key' });
    v4.version(2).stores({
      elements: 'id, corpusId, *parentIds',
      datasets: 'id, ownerId',
      outbox: '++seq, entityId, status',
    });
    v4.version(3).stores({ outbox: '++seq, entityId, status, *refIds' });
    v4.version(4).stores({ packs: 'id, createdAt', packTiles: '[packId+url], packId, url' });
    await v4.table('elements').put({ id: 'page-1', corpusId: 'c', parentIds: ['folder-1'] });
    await v4.table('packs').put({ id: 'folder-1', createdAt: 1, name: 'Register 1' });
    v4.close();

    const db = new FoliaDatabase(name);
    expect(db.verno).toBeGreaterThanOrEqual(5);
    expect((await db.elements.get('page-1'))?.parentIds).toEqual(['folder-1']);
    expect((await db.packs.get('folder-1'))?.name).toBe('Register 1');

    await db.elementSets.put({ id: 'page-1', sets: [], datasetIds: ['d-1', 'd-2'], savedAt: 1 });
    await db.elementSets.put({ id: 'page-2', sets: [], datasetIds: ['d-2'], savedAt: 1 });
    // A set renamed finds the elements of its dataset by index, not by reading them all.
    expect(await db.elementSets.where('datasetIds').equals('d-2').primaryKeys()).toEqual([
      'page-1',
      'page-2',
    ]);
    await db.delete();
  });
});
