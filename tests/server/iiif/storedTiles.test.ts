import fs from 'node:fs';
import sharp, { type Region } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../server/config';
import { jpegQuality } from '../../../server/iiif/jpegQuality';
import { renderStats, storedOutput } from '../../../server/iiif/render';
import {
  closeStoredFile,
  readStoredLevels,
  readStoredTile,
} from '../../../server/iiif/storedTiles';
import { parseImageRequest } from '../../../server/iiif/params';
import { iiifCacheDir, imageFile, storeImage } from '../../../server/services/images';
import type { Image } from '../../../server/db/schema';
import { Client, describeEachDialect } from '../harness';

/** Levels of 2200×1600, 1100×800, 550×400 and 275×200: whole 512 tiles on the first two. */
const WIDTH = 2200;
const HEIGHT = 1600;

/** A page-like picture with fine noise, so that JPEG quality shows in bytes and pixels. */
async function scan(): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 11;
  for (let i = 0; i < raw.length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = Math.floor(i / 3) % WIDTH;
    raw[i] = 120 + Math.round((x * 80) / WIDTH) + (seed % 30);
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .png()
    .toBuffer();
}

async function pixels(input: string | Buffer, page?: number, box?: Region) {
  let image = sharp(input, page === undefined ? {} : { page });
  if (box) image = image.extract(box);
  return image.raw().toBuffer({ resolveWithObject: true });
}

function largestDifference(a: Buffer, b: Buffer): number {
  let largest = 0;
  for (let i = 0; i < a.length; i += 1) largest = Math.max(largest, Math.abs(a[i]! - b[i]!));
  return largest;
}

describe('FOLIA_IIIF_JPEG_QUALITY', () => {
  it('is 85 unless told, a whole number from 1 to 100', () => {
    expect(loadConfig({}).iiifJpegQuality).toBe(85);
    expect(loadConfig({ FOLIA_IIIF_JPEG_QUALITY: '75' }).iiifJpegQuality).toBe(75);
    for (const wrong of ['0', '101', '80.5', 'high']) {
      expect(() => loadConfig({ FOLIA_IIIF_JPEG_QUALITY: wrong })).toThrow(
        /FOLIA_IIIF_JPEG_QUALITY/,
      );
    }
  });
});

describeEachDialect('a tile asked for as the pyramid stores it', ({ t }) => {
  let app: FastifyInstance;
  let image: Image;
  let file: string;
  const get = (path: string) => new Client(app).get(`/iiif/${image.id}/${path}`);

  beforeAll(async () => {
    app = t().app;
    image = await storeImage(app, { corpusId: null, buffer: await scan(), filename: 'scan.png' });
    file = imageFile(t().config.dataDir, image)!;
  });

  it('is sent as stored: no render, nothing written to the disk cache, the pyramid’s pixels', async () => {
    const before = { ...renderStats };
    const response = await get('512,0,512,512/512,/0/default.jpg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(renderStats.renders).toBe(before.renders);
    expect(renderStats.stored).toBe(before.stored + 1);
    expect(fs.existsSync(iiifCacheDir(t().config.dataDir, image.id))).toBe(false);

    const sent = await pixels(response.rawPayload);
    expect([sent.info.width, sent.info.height, sent.info.channels]).toEqual([512, 512, 3]);
    const stored = await pixels(file, 0, { left: 512, top: 0, width: 512, height: 512 });
    expect(largestDifference(sent.data, stored.data)).toBeLessThanOrEqual(1);
    // At the quality the server is set to, as a rendered tile would have been.
    expect(Math.abs((await jpegQuality(response.rawPayload))! - 85)).toBeLessThanOrEqual(1);
  });

  it('is sent as stored from a smaller level too, with that level’s pixels', async () => {
    const renders = renderStats.renders;
    const response = await get('1024,0,1024,1024/512,/0/default.jpg');
    expect(response.statusCode).toBe(200);
    expect(renderStats.renders).toBe(renders);
    const sent = await pixels(response.rawPayload);
    const stored = await pixels(file, 1, { left: 512, top: 0, width: 512, height: 512 });
    expect([sent.info.width, sent.info.height]).toEqual([512, 512]);
    expect(largestDifference(sent.data, stored.data)).toBeLessThanOrEqual(1);
  });

  it('is cropped from its stored tile when cut by the edge, with the pyramid’s pixels', async () => {
    for (const [path, page, box] of [
      ['2048,0,152,512/152,/0/default.jpg', 0, { left: 2048, top: 0, width: 152, height: 512 }],
      ['0,1536,512,64/512,/0/default.jpg', 0, { left: 0, top: 1536, width: 512, height: 64 }],
      ['2048,0,152,1024/76,/0/default.jpg', 1, { left: 1024, top: 0, width: 76, height: 512 }],
    ] as const) {
      const before = { ...renderStats };
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      expect(renderStats.renders, path).toBe(before.renders);
      expect(renderStats.stored, path).toBe(before.stored + 1);
      const sent = await pixels(response.rawPayload);
      expect([sent.info.width, sent.info.height], path).toEqual([box.width, box.height]);
      const stored = await pixels(file, page, box);
      // Decoded and encoded once more, at the server's quality: close, not identical.
      expect(largestDifference(sent.data, stored.data), path).toBeLessThanOrEqual(12);
      expect(Math.abs((await jpegQuality(response.rawPayload))! - 85), path).toBeLessThanOrEqual(1);
    }
  });

  it('is rendered when scaled, rotated or grey, at the set quality', async () => {
    for (const [path, size] of [
      ['0,0,512,512/256,/0/default.jpg', [256, 256]],
      ['0,0,512,512/512,/90/default.jpg', [512, 512]],
      ['0,0,512,512/512,/0/gray.jpg', [512, 512]],
      ['2048,0,152,512/76,/0/default.jpg', [76, 256]],
    ] as const) {
      const renders = renderStats.renders;
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      expect(renderStats.renders, path).toBe(renders + 1);
      const { info } = await pixels(response.rawPayload);
      expect([info.width, info.height], path).toEqual(size);
      expect(Math.abs((await jpegQuality(response.rawPayload))! - 85), path).toBeLessThanOrEqual(1);
    }
  });

  it('is read again after its pyramid was let go of, and is nothing once the pyramid is gone', async () => {
    const copy = `${file}.copy.tif`;
    fs.copyFileSync(file, copy);
    const { mtimeMs } = fs.statSync(copy);
    const [level] = (await readStoredLevels(copy))!;
    const tile = await readStoredTile(copy, mtimeMs, level!, 0);
    expect(tile?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    closeStoredFile(copy);
    expect((await readStoredTile(copy, mtimeMs, level!, 0))?.equals(tile!)).toBe(true);
    closeStoredFile(copy);
    fs.rmSync(copy);
    expect(await readStoredTile(copy, mtimeMs, level!, 0)).toBeNull();
  });

  it('is not sent as stored when the pyramid is of a higher quality than the server sends', async () => {
    const { mtimeMs } = fs.statSync(file);
    const request = parseImageRequest(
      { region: '0,0,512,512', size: '512,', rotation: '0', file: 'default.jpg' },
      image,
    );
    expect(await storedOutput(file, mtimeMs, image, request, 85)).not.toBeNull();
    expect(await storedOutput(file, mtimeMs, image, request, 70)).toBeNull();
  });
});

describeEachDialect(
  'the pyramid at a quality set by FOLIA_IIIF_JPEG_QUALITY',
  ({ t }) => {
    it('is stored at that quality, and its whole tiles are sent at it', async () => {
      const app = t().app;
      const image = await storeImage(app, { corpusId: null, buffer: await scan() });
      const levels = await readStoredLevels(imageFile(t().config.dataDir, image)!);
      expect(levels?.map((level) => level.quality)).toEqual([60, 60, 60, 60]);
      const renders = renderStats.renders;
      const response = await new Client(app).get(
        `/iiif/${image.id}/0,0,512,512/512,/0/default.jpg`,
      );
      expect(response.statusCode).toBe(200);
      expect(renderStats.renders).toBe(renders);
      expect(await jpegQuality(response.rawPayload)).toBe(60);
    });
  },
  { FOLIA_IIIF_JPEG_QUALITY: '60' },
);
