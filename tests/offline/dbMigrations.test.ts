import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';

describe('local database migrations', () => {
  it('keeps the persisted queries of version 1', async () => {
    const name = `folia-v1-${randomUUID()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({ queries: 'key' });
    await v1.table('queries').put({ key: 'server-info', value: '{"version":"1.9.0"}' });
    v1.close();

    const db = new FoliaDatabase(name);
    expect(await db.queries.get('server-info')).toEqual({
      key: 'server-info',
      value: '{"version":"1.9.0"}',
    });
    expect(await db.outbox.count()).toBe(0);
    await db.delete();
  });

  it('indexes the ids named by edits queued under version 2', async () => {
    const name = `folia-v2-${randomUUID()}`;
    const v2 = new Dexie(name);
    v2.version(1).stores({ queries: 'key' });
    v2.version(2).stores({
      outbox: '++seq, entityId, status',
      elements: 'id, corpusId, *parentIds',
    });
    const folder = 'tmp-folder';
    await v2.table('outbox').bulkAdd([
      { entityId: folder, kind: 'element.create', payload: { parent: null }, status: 'pending' },
      {
        entityId: 'tmp-page',
        kind: 'element.create',
        payload: { parent: folder },
        status: 'pending',
      },
      {
        entityId: 'some-page',
        kind: 'element.move',
        payload: { destination: folder },
        status: 'pending',
      },
    ]);
    v2.close();

    const db = new FoliaDatabase(name);
    const naming = await db.outbox.where('refIds').equals(folder).toArray();
    expect(naming.map((entry) => entry.entityId).sort()).toEqual([
      'some-page',
      'tmp-folder',
      'tmp-page',
    ]);
    await db.delete();
  });
});
