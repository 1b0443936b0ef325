import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../server/errors';
import type { Image } from '../../server/db/schema';
import {
  createRemoteImage,
  deleteImageFiles,
  iiifCacheDir,
  imageFile,
  imageJson,
  imagesDir,
  storeImage,
} from '../../server/services/images';
import { Client, describeEachDialect } from './harness';
import { SHARED_DATA_DIR } from './sharedData';

const SHARED = SHARED_DATA_DIR;
const BRONOD = path.join(SHARED, 'lectaurep-bronod/bronod1/0001.jpg');
const BEBEL = path.join(
  SHARED,
  'ocrd-gt_structure_text/bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146.tif',
);

async function insertCorpus(app: FastifyInstance, isPublic = false): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await app.db
    .insertInto('corpora')
    .values({
      id,
      name: 'Images',
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

async function expectInvalid(promise: Promise<unknown>, attr: string): Promise<ApiError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).statusCode).toBe(400);
  expect((error as ApiError).errors[0]?.attr).toBe(attr);
  return error as ApiError;
}

async function levelSizes(file: string): Promise<number[][]> {
  const pages = (await sharp(file).metadata()).pages ?? 1;
  const sizes: number[][] = [];
  for (let page = 0; page < pages; page += 1) {
    const metadata = await sharp(file, { page }).metadata();
    sizes.push([metadata.width!, metadata.height!]);
  }
  return sizes;
}

describe('imageJson', () => {
  const base: Image = {
    id: '6f1c2f4e-0000-4000-8000-000000000001',
    corpus_id: null,
    path: '6f/6f1c2f4e-0000-4000-8000-000000000001.tif',
    url: null,
    width: 100,
    height: 50,
    status: 'checked',
    mime: 'image/jpeg',
    hash: null,
    created: '2024-01-01T00:00:00.000Z',
  };

  it('gives local images a IIIF base on this server, path being the id', () => {
    expect(imageJson(base, 'https://folia.example.org')).toEqual({
      id: base.id,
      path: base.id,
      width: 100,
      height: 50,
      url: `https://folia.example.org/iiif/${base.id}`,
      s3_url: null,
      status: 'checked',
      server: {
        display_name: 'Folia',
        url: 'https://folia.example.org/iiif',
        max_width: null,
        max_height: null,
      },
    });
  });

  it('splits remote URLs into server and path as Arkindex does', () => {
    const url =
      'https://europe-gamma.iiif.teklia.com/iiif/2/kesztenbaum%2FLeCreusot%2FAD071_6MI006%2F6MI006_0427_D.jpg';
    const json = imageJson({ ...base, path: null, url }, 'https://folia.example.org');
    expect(json.url).toBe(url);
    expect(json.path).toBe('kesztenbaum%2FLeCreusot%2FAD071_6MI006%2F6MI006_0427_D.jpg');
    expect(json.server).toEqual({
      display_name: 'europe-gamma.iiif.teklia.com',
      url: 'https://europe-gamma.iiif.teklia.com/iiif/2',
      max_width: null,
      max_height: null,
    });
    expect(`${json.server.url}/${json.path}`).toBe(url);
    const other = imageJson(
      { ...base, path: null, url: 'https://images.example.org/cantaloupe/page-1' },
      'https://folia.example.org',
    );
    expect([other.server.url, other.path]).toEqual([
      'https://images.example.org/cantaloupe',
      'page-1',
    ]);
  });
});

describeEachDialect('image storage', ({ t }) => {
  let app: FastifyInstance;
  let corpusId: string;
  beforeAll(async () => {
    app = t().app;
    corpusId = await insertCorpus(app);
  });

  const rowCount = async () =>
    Number(
      (
        await app.db
          .selectFrom('images')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('converts a large page JPEG into a tiled pyramidal TIFF and records it', async () => {
    const source = fs.existsSync(BRONOD) ? BRONOD : path.join(t().config.dataDir, 'large.jpg');
    if (source !== BRONOD) {
      await sharp({ create: { width: 5680, height: 4180, channels: 3, background: '#c8b89a' } })
        .jpeg()
        .toFile(source);
    }
    const image = await storeImage(app, { corpusId, sourcePath: source });
    expect(image).toMatchObject({
      corpus_id: corpusId,
      url: null,
      width: 5680,
      height: 4180,
      status: 'checked',
      mime: 'image/jpeg',
      hash: createHash('sha256').update(fs.readFileSync(source)).digest('hex'),
    });
    expect(image.path).toBe(`${image.id.slice(0, 2)}/${image.id}.tif`);
    const file = path.join(imagesDir(t().config.dataDir), image.id.slice(0, 2), `${image.id}.tif`);
    expect(imageFile(t().config.dataDir, image)).toBe(file);
    const metadata = await sharp(file).metadata();
    expect(metadata.format).toBe('tiff');
    expect(metadata.channels).toBe(3);
    expect(await levelSizes(file)).toEqual([
      [5680, 4180],
      [2840, 2090],
      [1420, 1045],
      [710, 522],
      [355, 261],
    ]);
    const row = await app.db
      .selectFrom('images')
      .selectAll()
      .where('id', '=', image.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual(image);
  });

  it.skipIf(!fs.existsSync(BEBEL))('keeps a real 1-bit LZW TIFF page readable', async () => {
    const image = await storeImage(app, { corpusId: null, sourcePath: BEBEL });
    expect(image).toMatchObject({ width: 3068, height: 4660, mime: 'image/tiff' });
    const file = imageFile(t().config.dataDir, image)!;
    expect((await sharp(file).metadata()).channels).toBe(1);
    // Mostly paper: as bright as the original (mean 227), not inverted or blackened.
    const original = (await sharp(BEBEL).stats()).channels[0]!.mean;
    for (const page of [0, 2, 4]) {
      const mean = (await sharp(file, { page }).stats()).channels[0]!.mean;
      expect(Math.abs(mean - original)).toBeLessThan(6);
    }
    const response = await new Client(app).get(
      `/iiif/${image.id}/0,0,2048,2048/512,/0/default.png`,
    );
    expect(response.statusCode).toBe(200);
    const stats = await sharp(response.rawPayload).stats();
    expect(stats.channels[0]!.mean).toBeGreaterThan(180);
    // Low zoom: grey anti-aliasing, not only pure black and white.
    const { data } = await sharp(response.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const greys = data.filter((v) => v > 40 && v < 215).length;
    expect(greys / data.length).toBeGreaterThan(0.01);
  });

  it('flattens transparency onto white and reduces 16-bit images to 8 bits', async () => {
    const transparent = await sharp({
      create: { width: 64, height: 48, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const image = await storeImage(app, { corpusId, buffer: transparent, filename: 'a.png' });
    expect(image).toMatchObject({ width: 64, height: 48, mime: 'image/png' });
    const stored = sharp(imageFile(t().config.dataDir, image)!);
    const { data, info } = await stored.raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    expect(Math.min(...data)).toBeGreaterThan(245);

    const deep = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#336699' },
    })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    const deepImage = await storeImage(app, { corpusId, buffer: deep });
    const metadata = await sharp(imageFile(t().config.dataDir, deepImage)!).metadata();
    expect(metadata.depth).toBe('uchar');
  });

  it('stores and serves images smaller than one tile', async () => {
    for (const [width, height] of [
      [1, 1],
      [100, 100],
      [512, 300],
    ] as const) {
      const image = await storeImage(app, {
        corpusId: null,
        buffer: await sharp({ create: { width, height, channels: 3, background: '#4a7' } })
          .jpeg()
          .toBuffer(),
      });
      expect([image.width, image.height]).toEqual([width, height]);
      const client = new Client(app);
      const info = (await client.get(`/iiif/${image.id}/info.json`)).json();
      expect(info.tiles).toEqual([{ width: 512, scaleFactors: [1] }]);
      expect(info.sizes).toEqual([{ width, height }]);
      const full = await client.get(`/iiif/${image.id}/full/max/0/default.png`);
      expect(full.statusCode).toBe(200);
      const metadata = await sharp(full.rawPayload).metadata();
      expect([metadata.width, metadata.height]).toEqual([width, height]);
    }
  });

  it('refuses files that are not images, leaving nothing behind', async () => {
    const before = await rowCount();
    await expectInvalid(
      storeImage(app, { corpusId, buffer: Buffer.from('not an image'), filename: 'notes.txt' }),
      'file',
    );
    const truncated = (
      await sharp({
        create: { width: 800, height: 600, channels: 3, background: '#888888' },
      })
        .jpeg()
        .toBuffer()
    ).subarray(0, 300);
    await expectInvalid(storeImage(app, { corpusId, buffer: truncated }), 'file');
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    const error = await expectInvalid(
      storeImage(app, { corpusId, buffer: gif, filename: 'anim.gif' }),
      'file',
    );
    expect(error.errors[0]?.detail).toBe(
      '"anim.gif" is a gif file: JPEG, PNG, TIFF or WebP expected.',
    );
    expect(await rowCount()).toBe(before);
    const leftovers = fs
      .readdirSync(imagesDir(t().config.dataDir), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('records remote IIIF images by their base URL', async () => {
    const image = await createRemoteImage(app, {
      corpusId,
      url: 'https://iiif.example.org/iiif/2/page.jpg/info.json',
      width: 1000,
      height: 800,
    });
    expect(image).toMatchObject({
      url: 'https://iiif.example.org/iiif/2/page.jpg',
      path: null,
      width: 1000,
      height: 800,
      mime: null,
      hash: null,
    });
    await expectInvalid(
      createRemoteImage(app, { corpusId, url: 'ftp://x.org/a', width: 1, height: 1 }),
      'url',
    );
    await expectInvalid(
      createRemoteImage(app, { corpusId, url: 'https://x.org/a', width: 0, height: 1 }),
      'width',
    );
  });

  it('loses a project’s images with the project', async () => {
    const doomed = await insertCorpus(app);
    const image = await createRemoteImage(app, {
      corpusId: doomed,
      url: 'https://iiif.example.org/iiif/2/x',
      width: 10,
      height: 10,
    });
    await app.db.deleteFrom('corpora').where('id', '=', doomed).execute();
    const row = await app.db
      .selectFrom('images')
      .select('id')
      .where('id', '=', image.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('removes an image’s pyramid and cached renderings', async () => {
    const image = await storeImage(app, {
      corpusId: null,
      buffer: await sharp({ create: { width: 300, height: 200, channels: 3, background: '#123' } })
        .jpeg()
        .toBuffer(),
    });
    expect((await new Client(app).get(`/iiif/${image.id}/full/50,/0/default.jpg`)).statusCode).toBe(
      200,
    );
    const cache = iiifCacheDir(t().config.dataDir, image.id);
    expect(fs.readdirSync(cache)).toHaveLength(1);
    await deleteImageFiles(t().config.dataDir, image);
    expect(fs.existsSync(cache)).toBe(false);
    expect(fs.existsSync(imageFile(t().config.dataDir, image)!)).toBe(false);
  });

  it('GET /api/v1/image/{id}/ answers the Arkindex image shape', async () => {
    const image = await storeImage(app, {
      corpusId: await insertCorpus(app, true),
      buffer: await sharp({ create: { width: 30, height: 20, channels: 3, background: '#abc' } })
        .png()
        .toBuffer(),
    });
    const response = await new Client(app).get(`/api/v1/image/${image.id}/`, {
      host: 'pages.example.org:8000',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: image.id,
      path: image.id,
      width: 30,
      height: 20,
      url: `http://pages.example.org:8000/iiif/${image.id}`,
      s3_url: null,
      status: 'checked',
      server: {
        display_name: 'Folia',
        url: 'http://pages.example.org:8000/iiif',
        max_width: null,
        max_height: null,
      },
    });
  });
});

describeEachDialect(
  'image URLs with FOLIA_PUBLIC_URL',
  ({ t }) => {
    it('builds image and info.json URLs from the configured origin, not Host', async () => {
      const image = await storeImage(t().app, {
        corpusId: null,
        buffer: await sharp({ create: { width: 30, height: 20, channels: 3, background: '#abc' } })
          .png()
          .toBuffer(),
      });
      const client = new Client(t().app);
      const json = (await client.get(`/api/v1/image/${image.id}/`, { host: 'evil.test' })).json();
      expect(json.url).toBe(`https://folia.example.org/iiif/${image.id}`);
      const info = (await client.get(`/iiif/${image.id}/info.json`, { host: 'evil.test' })).json();
      expect(info['@id']).toBe(`https://folia.example.org/iiif/${image.id}`);
    });
  },
  { FOLIA_PUBLIC_URL: 'https://folia.example.org' },
);
