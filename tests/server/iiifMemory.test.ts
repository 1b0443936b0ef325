import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import os from 'node:os';
import { cacheStats, RenderCache } from '../../server/iiif/cache';
import { MemoryTiles } from '../../server/iiif/memoryTiles';
import { renderStats } from '../../server/iiif/render';
import { loadConfig } from '../../server/config';
import { iiifCacheDir, storeImage } from '../../server/services/images';
import { Client, createTestUser, describeEachDialect } from './harness';

describe('tiles kept in memory', () => {
  const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

  it('gives back what was kept, and forgets the least recently used when full', () => {
    const tiles = new MemoryTiles(100);
    tiles.set('a', bytes(20, 1));
    tiles.set('b', bytes(20, 2));
    tiles.set('c', bytes(20, 3));
    tiles.set('d', bytes(20, 4));
    expect(tiles.get('a')?.[0]).toBe(1);
    // a was just read, so b is now the oldest.
    tiles.set('e', bytes(25, 5));
    expect(tiles.bytes).toBe(85);
    expect(tiles.get('b')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((key) => tiles.get(key)?.[0])).toEqual([1, 3, 4, 5]);
    expect(tiles.size).toBe(4);
  });

  it('replaces an entry kept twice without counting it twice', () => {
    const tiles = new MemoryTiles(100);
    tiles.set('a', bytes(20, 1));
    tiles.set('a', bytes(10, 2));
    expect(tiles.bytes).toBe(10);
    expect(tiles.get('a')?.[0]).toBe(2);
  });

  it('does not keep an output larger than a quarter of its room', () => {
    const tiles = new MemoryTiles(100);
    tiles.set('small', bytes(20));
    tiles.set('full image', bytes(26));
    expect(tiles.get('full image')).toBeUndefined();
    expect(tiles.get('small')).toBeDefined();
  });

  it('holds what the disk cache gave once, so later requests need neither disk nor render', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-tiles-'));
    try {
      const tile = bytes(1000, 7);
      const refused = () => Promise.reject(new Error('rendered again'));
      await new RenderCache(root).get('image', 'key', 'jpg', async () => tile);
      // Another server process on the same data: the tile is on disk, not in its memory.
      const cache = new RenderCache(root, () => {}, new MemoryTiles(1024 * 1024));
      expect((await cache.get('image', 'key', 'jpg', refused)).equals(tile)).toBe(true);
      fs.rmSync(cache.file('image', 'key', 'jpg'));
      expect((await cache.get('image', 'key', 'jpg', refused)).equals(tile)).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('is sized by FOLIA_IIIF_MEMORY_MB, 64 MB unless told, 0 for none', () => {
    expect(loadConfig({}).iiifMemoryMb).toBe(64);
    expect(loadConfig({ FOLIA_IIIF_MEMORY_MB: '0' }).iiifMemoryMb).toBe(0);
    expect(loadConfig({ FOLIA_IIIF_MEMORY_MB: '256' }).iiifMemoryMb).toBe(256);
    for (const wrong of ['-1', '1.5', 'lots']) {
      expect(() => loadConfig({ FOLIA_IIIF_MEMORY_MB: wrong })).toThrow(/FOLIA_IIIF_MEMORY_MB/);
    }
  });
});

/** A project made straight in the database, public or not. */
async function insertCorpus(
  app: FastifyInstance,
  name: string,
  isPublic: boolean,
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await app.db
    .insertInto('corpora')
    .values({
      id,
      name,
      description: '',
      public: isPublic ? 1 : 0,
      indexable: 0,
      top_level_type: null,
      created: now,
      updated: now,
    })
    .execute();
  return id;
}

describeEachDialect('a warm tile', ({ t }) => {
  let app: FastifyInstance;
  let base: string;
  let imageId: string;
  const anonymous = () => new Client(app);
  const get = (url: string) => anonymous().get(url, { host: 'folia.test' });

  beforeAll(async () => {
    app = t().app;
    const corpusId = await insertCorpus(app, 'Public scans', true);
    const image = await storeImage(app, {
      corpusId,
      buffer: await sharp({
        create: { width: 1200, height: 900, channels: 3, background: '#aa7744' },
      })
        .jpeg()
        .toBuffer(),
      filename: 'scan.jpg',
    });
    imageId = image.id;
    base = `/iiif/${image.id}`;
  });

  it('is sent from memory, without the disk or a render, byte for byte what was rendered', async () => {
    const url = `${base}/0,0,512,512/256,/0/default.jpg`;
    const renders = renderStats.renders;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(renderStats.renders).toBe(renders + 1);

    // The disk cache emptied behind the server's back: the tile still comes, from memory.
    fs.rmSync(iiifCacheDir(t().config.dataDir, imageId), { recursive: true, force: true });
    const memoryHits = cacheStats.memoryHits;
    const second = await get(url);
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toBe('image/jpeg');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(cacheStats.memoryHits).toBe(memoryHits + 1);
    expect(renderStats.renders).toBe(renders + 1);
  });

  it("still follows the image rights: a private project's tile is not served to others", async () => {
    const corpusId = await insertCorpus(app, 'Private scans', false);
    const image = await storeImage(app, {
      corpusId,
      buffer: await sharp({ create: { width: 600, height: 600, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer(),
      filename: 'private.jpg',
    });
    const member = await createTestUser(app);
    await app.db
      .insertInto('memberships')
      .values({
        id: randomUUID(),
        corpus_id: corpusId,
        user_id: member.id,
        level: 10,
        created: new Date().toISOString(),
      })
      .execute();
    const url = `/iiif/${image.id}/0,0,256,256/256,/0/default.jpg`;
    const seen = await new Client(app, member.token).get(url, { host: 'folia.test' });
    expect(seen.statusCode).toBe(200);
    // Kept in memory now, yet an anonymous caller gets the same 404 as for an unknown image.
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.rawPayload.equals(seen.rawPayload)).toBe(false);
  });
});
