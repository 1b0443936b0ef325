import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';

describe('local database version 4', () => {
  it('adds the offline packs to a version 3 database, keeping its data', async () => {
    const name = `folia-v3-${randomUUID()}`;
    const v3 = new Dexie(name);
    v3.version(1).stores({ queries: 'key' });
    v3.version(2).stores({
      elements: 'id, corpusId, *parentIds',
      outbox: '++seq, entityId, status',
    });
    v3.version(3).stores({ outbox: '++seq, entityId, status, *refIds' });
    await v3.table('elements').put({ id: 'page-1', corpusId: 'c', parentIds: ['folder-1'] });
    await v3.table('outbox').add({
      entityId: 'page-1',
      refIds: ['page-1'],
      kind: 'element.update',
      payload: { name: 'Folio 1' },
      status: 'pending',
    });
    v3.close();

    const db = new FoliaDatabase(name);
    expect((await db.elements.get('page-1'))?.parentIds).toEqual(['folder-1']);
    expect(await db.outbox.where('refIds').equals('page-1').count()).toBe(1);
    expect(db.verno).toBeGreaterThanOrEqual(4);

    await db.packs.put({
      id: 'folder-1',
      name: 'Register 1',
      corpusId: 'c',
      zoom: 'screen',
      elementCount: 7,
      tileCount: 20,
      bytes: 51_000,
      status: 'complete',
      createdAt: 1,
    });
    await db.packTiles.bulkPut([
      { packId: 'folder-1', url: 'https://iiif.example.org/a/info.json', bytes: 500 },
      { packId: 'page-1', url: 'https://iiif.example.org/a/info.json', bytes: 500 },
    ]);
    expect(
      await db.packTiles.where('url').equals('https://iiif.example.org/a/info.json').count(),
    ).toBe(2);
    expect(await db.packTiles.where('packId').equals('folder-1').count()).toBe(1);
    await db.delete();
  });
});
