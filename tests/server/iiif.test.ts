import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { canonicalRequest, parseImageRequest } from '../../server/iiif/params';
import { chooseLevel, renderStats, type Level } from '../../server/iiif/render';
import { scaleFactors } from '../../server/iiif/info';
import { ApiError } from '../../server/errors';
import {
  createRemoteImage,
  iiifCacheDir,
  imageFile,
  storeImage,
} from '../../server/services/images';
import type { Image } from '../../server/db/schema';
import { Client, createTestUser, describeEachDialect, type TestUser } from './harness';

const W = 3000;
const H = 2000;
const HOST = 'folia.test';

/** The gradient's colour at (x, y): red grows to the right, green downwards, blue constant. */
function gradientAt(x: number, y: number): [number, number, number] {
  return [Math.round((x * 255) / (W - 1)), Math.round((y * 255) / (H - 1)), 128];
}

async function gradientJpeg(): Promise<Buffer> {
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) raw.set(gradientAt(x, y), (y * W + x) * 3);
  }
  return sharp(raw, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

async function pixels(buffer: Buffer) {
  const { data, info } = await sharp(buffer).raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: info.channels,
    data,
    at(x: number, y: number): number[] {
      const i = (y * info.width + x) * info.channels;
      return [...data.subarray(i, i + info.channels)];
    },
  };
}

function expectColour(actual: number[], expected: number[], tolerance = 8): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) =>
    expect(Math.abs(value - expected[i]!)).toBeLessThanOrEqual(tolerance),
  );
}

async function insertCorpus(app: FastifyInstance, isPublic: boolean): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await app.db
    .insertInto('corpora')
    .values({
      id,
      name: `Corpus ${id.slice(0, 4)}`,
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

async function addMember(app: FastifyInstance, corpusId: string, user: TestUser, level: number) {
  await app.db
    .insertInto('memberships')
    .values({
      id: randomUUID(),
      corpus_id: corpusId,
      user_id: user.id,
      level,
      created: new Date().toISOString(),
    })
    .execute();
}

describe('IIIF parameters', () => {
  const image = { width: W, height: H };
  const parse = (region: string, size = 'full', rotation = '0', file = 'default.jpg') =>
    parseImageRequest({ region, size, rotation, file }, image);

  it('resolves regions, clipping to the image', () => {
    expect(parse('full').region).toEqual({ x: 0, y: 0, w: W, h: H });
    expect(parse('square').region).toEqual({ x: 500, y: 0, w: 2000, h: 2000 });
    expect(parse('10,20,30,40').region).toEqual({ x: 10, y: 20, w: 30, h: 40 });
    expect(parse('2900,1900,500,500').region).toEqual({ x: 2900, y: 1900, w: 100, h: 100 });
    expect(parse('pct:50,25,50,50').region).toEqual({ x: 1500, y: 500, w: 1500, h: 1000 });
    expect(parse('pct:90,90,20,20').region).toEqual({ x: 2700, y: 1800, w: 300, h: 200 });
  });

  it('resolves sizes against the region', () => {
    const size = (value: string, region = 'full') => {
      const { width, height } = parse(region, value);
      return [width, height];
    };
    expect(size('full')).toEqual([3000, 2000]);
    expect(size('max')).toEqual([3000, 2000]);
    expect(size('300,')).toEqual([300, 200]);
    expect(size(',100')).toEqual([150, 100]);
    expect(size('pct:10')).toEqual([300, 200]);
    expect(size('200,200')).toEqual([200, 200]);
    expect(size('!200,200')).toEqual([200, 133]);
    expect(size('!600,100')).toEqual([150, 100]);
    expect(size('100,', '10,10,20,20')).toEqual([100, 100]);
  });

  it('caps "max" at the advertised largest size instead of refusing it', () => {
    const huge = { width: 30000, height: 15000 };
    const max = parseImageRequest(
      { region: 'full', size: 'max', rotation: '0', file: 'default.jpg' },
      huge,
    );
    expect([max.width, max.height]).toEqual([10000, 5000]);
    expect(() =>
      parseImageRequest({ region: 'full', size: 'full', rotation: '0', file: 'default.jpg' }, huge),
    ).toThrow(/too large/);
  });

  it('parses rotation, mirroring, quality and format', () => {
    expect(parse('full', 'full', '!90', 'gray.png')).toMatchObject({
      rotation: 90,
      mirror: true,
      quality: 'gray',
      format: 'png',
    });
    expect(parse('full', 'full', '360', 'color.jpg')).toMatchObject({
      rotation: 0,
      mirror: false,
      quality: 'default',
      format: 'jpg',
    });
  });

  it('gives URLs with the same output one canonical form', () => {
    const a = canonicalRequest(parse('full', 'max', '0', 'color.jpg'));
    const b = canonicalRequest(parse('0,0,3000,2000', '3000,', '360', 'default.jpg'));
    expect(a).toBe(b);
    expect(canonicalRequest(parse('full', 'max', '!0'))).not.toBe(a);
  });

  it.each([
    ['abc', 'full', '0', 'default.jpg', 'region'],
    ['1,2,3', 'full', '0', 'default.jpg', 'region'],
    ['0,0,0,10', 'full', '0', 'default.jpg', 'region'],
    ['3000,0,10,10', 'full', '0', 'default.jpg', 'region'],
    ['pct:0,0,0,10', 'full', '0', 'default.jpg', 'region'],
    ['-1,0,10,10', 'full', '0', 'default.jpg', 'region'],
    ['full', '0,', '0', 'default.jpg', 'size'],
    ['full', ',', '0', 'default.jpg', 'size'],
    ['full', '!100,', '0', 'default.jpg', 'size'],
    ['full', 'pct:0', '0', 'default.jpg', 'size'],
    ['full', '10001,', '0', 'default.jpg', 'size'],
    ['full', 'big', '0', 'default.jpg', 'size'],
    ['full', 'full', '45', 'default.jpg', 'rotation'],
    ['full', 'full', '361', 'default.jpg', 'rotation'],
    ['full', 'full', 'x', 'default.jpg', 'rotation'],
    ['full', 'full', '0', 'sepia.jpg', 'quality'],
    ['full', 'full', '0', 'default.tif', 'format'],
    ['full', 'full', '0', 'default', 'format'],
  ])('refuses %s/%s/%s/%s naming %s', (region, size, rotation, file, attr) => {
    try {
      parse(region, size, rotation, file);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).statusCode).toBe(400);
      expect((error as ApiError).errors[0]?.attr).toBe(attr);
    }
  });
});

describe('IIIF pyramid levels', () => {
  const levels: Level[] = [
    { page: 0, width: 5680, height: 4180 },
    { page: 1, width: 2840, height: 2090 },
    { page: 2, width: 1420, height: 1045 },
    { page: 3, width: 710, height: 522 },
    { page: 4, width: 355, height: 261 },
  ];
  const image = { width: 5680, height: 4180 };
  const pick = (x: number, y: number, w: number, h: number, width: number, height: number) =>
    chooseLevel(levels, image, { region: { x, y, w, h }, width, height }).page;

  it('reads the smallest level that has enough pixels for the output', () => {
    expect(pick(0, 0, 512, 512, 512, 512)).toBe(0);
    expect(pick(0, 0, 2048, 2048, 512, 512)).toBe(2);
    expect(pick(0, 0, 5680, 4180, 355, 261)).toBe(4);
    expect(pick(0, 0, 5680, 4180, 400, 294)).toBe(3);
    expect(pick(0, 0, 100, 100, 1000, 1000)).toBe(0);
    // A sub-pixel shortfall (4096 × 522/4180 = 511.5) does not fall back to a 4× larger level.
    expect(pick(0, 0, 4096, 4096, 512, 512)).toBe(3);
  });

  it('advertises scale factors down to one tile', () => {
    expect(scaleFactors(5680, 4180)).toEqual([1, 2, 4, 8, 16]);
    expect(scaleFactors(3000, 2000)).toEqual([1, 2, 4, 8]);
    expect(scaleFactors(512, 300)).toEqual([1]);
    expect(scaleFactors(513, 300)).toEqual([1, 2]);
  });
});

// Without tiles kept in memory, so the disk cache is checked as it is (memory: iiifMemory.test.ts).
describeEachDialect(
  'IIIF Image API',
  ({ t }) => {
    let app: FastifyInstance;
    let member: TestUser;
    let outsider: TestUser;
    let privateImage: Image;
    let publicCorpusImage: Image;
    let bitonalImage: Image;
    let remoteImage: Image;
    let base: string;
    let anonymous: Client;
    let memberClient: Client;

    const get = (client: Client, url: string, headers: Record<string, string> = {}) =>
      client.get(url, { host: HOST, ...headers });

    beforeAll(async () => {
      app = t().app;
      member = await createTestUser(app);
      outsider = await createTestUser(app);
      const privateCorpus = await insertCorpus(app, false);
      const publicCorpus = await insertCorpus(app, true);
      await addMember(app, privateCorpus, member, 10);
      privateImage = await storeImage(app, {
        corpusId: privateCorpus,
        buffer: await gradientJpeg(),
        filename: 'gradient.jpg',
      });
      publicCorpusImage = await storeImage(app, {
        corpusId: publicCorpus,
        buffer: await sharp({
          create: { width: 600, height: 400, channels: 3, background: '#3366cc' },
        })
          .png()
          .toBuffer(),
      });
      // 1-bit LZW TIFF, white with a black bar: what many scanned archives hold.
      const ink = Buffer.alloc(1200 * 1600, 255);
      for (let y = 300; y < 400; y += 1) ink.fill(0, y * 1200 + 200, y * 1200 + 1000);
      const page = await sharp(ink, { raw: { width: 1200, height: 1600, channels: 1 } })
        .toColourspace('b-w')
        .tiff({ bitdepth: 1, compression: 'lzw', predictor: 'none' })
        .toBuffer();
      expect((await sharp(page).metadata()).bitsPerSample).toBe(1);
      bitonalImage = await storeImage(app, { corpusId: null, buffer: page, filename: 'page.tif' });
      remoteImage = await createRemoteImage(app, {
        corpusId: publicCorpus,
        url: 'https://iiif.example.org/iiif/2/folder%2Fpage.jpg/info.json',
        width: 4000,
        height: 3000,
      });
      base = `/iiif/${privateImage.id}`;
      anonymous = new Client(app);
      memberClient = new Client(app, member.token);
    });

    describe('info.json', () => {
      it('describes the image, its tiles and pyramid sizes', async () => {
        const response = await get(memberClient, `${base}/info.json`);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json()).toEqual({
          '@context': 'http://iiif.io/api/image/2/context.json',
          '@id': `http://${HOST}/iiif/${privateImage.id}`,
          protocol: 'http://iiif.io/api/image',
          width: 3000,
          height: 2000,
          profile: [
            'http://iiif.io/api/image/2/level2.json',
            expect.objectContaining({
              formats: ['jpg', 'png'],
              qualities: ['default', 'color', 'gray', 'bitonal'],
              supports: expect.arrayContaining(['mirroring', 'regionSquare', 'cors']),
            }),
          ],
          tiles: [{ width: 512, scaleFactors: [1, 2, 4, 8] }],
          sizes: [
            { width: 375, height: 250 },
            { width: 750, height: 500 },
            { width: 1500, height: 1000 },
            { width: 3000, height: 2000 },
          ],
        });
        expect(response.headers['cache-control']).toBe('private, max-age=86400');
        expect(response.headers.link).toBe(
          '<http://iiif.io/api/image/2/level2.json>;rel="profile"',
        );
      });

      it('answers JSON-LD when asked for it', async () => {
        const response = await get(memberClient, `${base}/info.json`, {
          accept: 'application/ld+json',
        });
        expect(response.headers['content-type']).toMatch(
          /^application\/ld\+json; ?profile="http:\/\/iiif.io\/api\/image\/2\/context.json"/,
        );
      });

      it('redirects the base URL, with or without a slash, to info.json', async () => {
        for (const url of [base, `${base}/`]) {
          const response = await get(memberClient, url);
          expect(response.statusCode).toBe(303);
          expect(response.headers.location).toBe(`http://${HOST}${base}/info.json`);
        }
      });

      it('sends remote images to their own IIIF server', async () => {
        const info = await get(anonymous, `/iiif/${remoteImage.id}/info.json`);
        expect(info.statusCode).toBe(303);
        expect(info.headers.location).toBe(
          'https://iiif.example.org/iiif/2/folder%2Fpage.jpg/info.json',
        );
        const tile = await get(
          anonymous,
          `/iiif/${remoteImage.id}/pct:0,0,50,50/!200,200/0/gray.jpg`,
        );
        expect(tile.statusCode).toBe(303);
        expect(tile.headers.location).toBe(
          'https://iiif.example.org/iiif/2/folder%2Fpage.jpg/pct:0,0,50,50/!200,200/0/gray.jpg',
        );
      });
    });

    describe('image requests', () => {
      async function image(url: string) {
        const response = await get(memberClient, `${base}/${url}`);
        expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
        return { response, metadata: await sharp(response.rawPayload).metadata() };
      }

      it.each([
        ['full/max/0/default.jpg', 3000, 2000],
        ['full/full/0/default.jpg', 3000, 2000],
        ['0,0,512,512/full/0/default.jpg', 512, 512],
        ['square/200,/0/default.jpg', 200, 200],
        ['pct:50,50,50,50/full/0/default.jpg', 1500, 1000],
        ['2900,1900,500,500/full/0/default.jpg', 100, 100],
        ['full/300,/0/default.jpg', 300, 200],
        ['full/,100/0/default.jpg', 150, 100],
        ['full/pct:10/0/default.jpg', 300, 200],
        ['full/200,200/0/default.jpg', 200, 200],
        ['full/!200,200/0/default.jpg', 200, 133],
        ['10,10,20,20/100,/0/default.jpg', 100, 100],
        ['0,0,2048,2048/512,/0/default.jpg', 512, 500],
        ['0,0,400,200/full/90/default.jpg', 200, 400],
        ['0,0,400,200/full/180/default.jpg', 400, 200],
        ['0,0,400,200/full/!270/default.jpg', 200, 400],
      ])('%s is %i×%i', async (url, width, height) => {
        const { metadata, response } = await image(url);
        expect(response.headers['content-type']).toBe('image/jpeg');
        expect(metadata.format).toBe('jpeg');
        expect([metadata.width, metadata.height]).toEqual([width, height]);
      });

      it('crops the requested region', async () => {
        const { response } = await image('1000,500,100,100/full/0/default.png');
        const crop = await pixels(response.rawPayload);
        expectColour(crop.at(0, 0), gradientAt(1000, 500));
        expectColour(crop.at(99, 99), gradientAt(1099, 599));
        expectColour(crop.at(50, 20), gradientAt(1050, 520));
      });

      it('reads low zoom levels with the right content', async () => {
        const { response } = await image('2000,1000,1000,1000/250,/0/default.png');
        const tile = await pixels(response.rawPayload);
        expect([tile.width, tile.height]).toEqual([250, 250]);
        expectColour(tile.at(125, 125), gradientAt(2500, 1500));
        expectColour(tile.at(0, 0), gradientAt(2002, 1002));
      });

      it('mirrors, then rotates', async () => {
        const mirrored = await pixels(
          (await image('0,0,1000,100/full/!0/default.png')).response.rawPayload,
        );
        expectColour(mirrored.at(0, 50), gradientAt(999, 50));
        expectColour(mirrored.at(999, 50), gradientAt(0, 50));
        // Mirrored, then turned clockwise: the region's top-right corner ends up top-left.
        const turned = await pixels(
          (await image('0,0,1000,100/full/!90/default.png')).response.rawPayload,
        );
        expect([turned.width, turned.height]).toEqual([100, 1000]);
        expectColour(turned.at(99, 0), gradientAt(999, 0));
        expectColour(turned.at(0, 0), gradientAt(999, 99));
        expectColour(turned.at(99, 999), gradientAt(0, 0));
        const plain = await pixels(
          (await image('0,0,1000,100/full/90/default.png')).response.rawPayload,
        );
        expectColour(plain.at(99, 0), gradientAt(0, 0));
        expectColour(plain.at(0, 999), gradientAt(999, 99));
      });

      it('renders gray and bitonal qualities as one band', async () => {
        const gray = await image('0,0,300,300/full/0/gray.png');
        expect(gray.metadata.channels).toBe(1);
        const grayPixels = await pixels(gray.response.rawPayload);
        const [r, g, b] = gradientAt(150, 150);
        // A luminance: between the darkest and brightest channel of the colour it replaces.
        expect(grayPixels.at(150, 150)[0]).toBeGreaterThan(Math.min(r, g, b));
        expect(grayPixels.at(150, 150)[0]).toBeLessThan(Math.max(r, g, b));
        const bitonal = await image('1000,500,2000,100/full/0/bitonal.png');
        expect(bitonal.metadata.channels).toBe(1);
        const values = new Set((await pixels(bitonal.response.rawPayload)).data);
        expect([...values].sort((x, y) => x - y)).toEqual([0, 255]);
        const color = await image('0,0,300,300/full/0/color.jpg');
        expect(color.metadata.channels).toBe(3);
      });

      it('answers PNG with its content type', async () => {
        const { response, metadata } = await image('full/100,/0/default.png');
        expect(response.headers['content-type']).toBe('image/png');
        expect(metadata.format).toBe('png');
      });

      it.each([
        ['nonsense/full/0/default.jpg', 'region'],
        ['5000,0,100,100/full/0/default.jpg', 'region'],
        ['full/0,/0/default.jpg', 'size'],
        ['full/20000,/0/default.jpg', 'size'],
        ['full/full/45/default.jpg', 'rotation'],
        ['full/full/0/sepia.jpg', 'quality'],
        ['full/full/0/default.webp', 'format'],
      ])('refuses %s with a structured 400', async (url, attr) => {
        const response = await get(memberClient, `${base}/${url}`);
        expect(response.statusCode).toBe(400);
        const body = response.json();
        expect(body.type).toBe('validation_error');
        expect(body.errors).toEqual([{ code: 'invalid', attr, detail: expect.any(String) }]);
      });

      it('explains an unsupported format', async () => {
        const response = await get(memberClient, `${base}/full/full/0/default.gif`);
        expect(response.json().errors[0].detail).toBe(
          'Unsupported format "gif": this server answers jpg or png.',
        );
      });

      it('keeps 1-bit TIFFs black on white, as anti-aliased grey at low zoom', async () => {
        expect(bitonalImage).toMatchObject({ width: 1200, height: 1600, mime: 'image/tiff' });
        const stored = await sharp(imageFile(t().config.dataDir, bitonalImage)!).metadata();
        expect(stored.channels).toBe(1);
        expect(stored.pages).toBeGreaterThan(1);
        const full = await pixels(
          (await get(anonymous, `/iiif/${bitonalImage.id}/full/600,/0/default.png`)).rawPayload,
        );
        expect([full.width, full.height]).toEqual([600, 800]);
        expect(full.at(10, 10)[0]).toBeGreaterThan(240);
        expect(full.at(300, 175)[0]).toBeLessThan(15);
        const tile = await pixels(
          (await get(anonymous, `/iiif/${bitonalImage.id}/0,0,1024,1024/512,/0/default.jpg`))
            .rawPayload,
        );
        expect(tile.at(5, 5)[0]).toBeGreaterThan(240);
        expect(tile.at(300, 175)[0]).toBeLessThan(30);
      });
    });

    describe('access', () => {
      const urls = (id: string) => [
        `/iiif/${id}/info.json`,
        `/iiif/${id}/full/100,/0/default.jpg`,
        `/iiif/${id}`,
        `/api/v1/image/${id}/`,
      ];

      it('hides a private project’s image from anonymous callers and non-members', async () => {
        const other = new Client(app, outsider.token);
        for (const url of urls(privateImage.id)) {
          for (const client of [anonymous, other]) {
            const response = await get(client, url);
            expect(response.statusCode, url).toBe(404);
            expect(response.json()).toEqual({
              type: 'client_error',
              errors: [{ code: 'not_found', detail: 'Not found.', attr: null }],
            });
          }
        }
      });

      it('serves it to members and site admins', async () => {
        const admin = new Client(app, (await createTestUser(app, { admin: true })).token);
        for (const url of urls(privateImage.id)) {
          for (const client of [memberClient, admin]) {
            expect((await get(client, url)).statusCode, url).toBeLessThan(400);
          }
        }
      });

      it('serves it to a member logged in with a session cookie', async () => {
        const browser = new Client(app);
        await browser.prime();
        const login = await browser.post('/api/v1/user/login/', {
          email: member.email,
          password: member.password,
        });
        expect(login.statusCode).toBe(200);
        expect((await get(browser, `${base}/full/100,/0/default.jpg`)).statusCode).toBe(200);
      });

      it('serves public projects’ and project-less images to anyone', async () => {
        for (const id of [publicCorpusImage.id, bitonalImage.id]) {
          for (const url of urls(id)) {
            expect((await get(anonymous, url)).statusCode, url).toBeLessThan(400);
          }
        }
        const tile = await get(anonymous, `/iiif/${publicCorpusImage.id}/full/max/0/default.jpg`);
        expect(tile.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      });

      it('stops serving tiles on the request after a write takes the right to read away', async () => {
        const owner = await createTestUser(app);
        const reader = await createTestUser(app);
        const corpusId = await insertCorpus(app, true);
        await addMember(app, corpusId, owner, 100);
        await addMember(app, corpusId, reader, 10);
        const image = await storeImage(app, {
          corpusId,
          buffer: await gradientJpeg(),
          filename: 'kept.jpg',
        });
        const tile = `/iiif/${image.id}/full/100,/0/default.jpg`;
        const readerClient = new Client(app, reader.token);
        const ownerClient = new Client(app, owner.token);
        // Asked for twice each: the second answer is the one kept for the next moments.
        for (const client of [readerClient, anonymous, readerClient, anonymous]) {
          expect((await get(client, tile)).statusCode).toBe(200);
        }
        const made = await ownerClient.request('PATCH', `/api/v1/corpus/${corpusId}/`, {
          public: false,
        });
        expect(made.statusCode).toBe(200);
        expect((await get(anonymous, tile)).statusCode).toBe(404);
        expect((await get(readerClient, tile)).statusCode).toBe(200);
        const membership = await app.db
          .selectFrom('memberships')
          .select('id')
          .where('corpus_id', '=', corpusId)
          .where('user_id', '=', reader.id)
          .executeTakeFirstOrThrow();
        const removed = await ownerClient.request('DELETE', `/api/v1/membership/${membership.id}/`);
        expect(removed.statusCode).toBe(204);
        expect((await get(readerClient, tile)).statusCode).toBe(404);
        expect((await get(readerClient, `/iiif/${image.id}/info.json`)).statusCode).toBe(404);
      });

      it('answers 404 for unknown and malformed ids', async () => {
        for (const id of [randomUUID(), 'not-a-uuid', `${privateImage.id}x`]) {
          for (const url of urls(id)) {
            expect((await get(memberClient, url)).statusCode, url).toBe(404);
          }
        }
        expect((await get(memberClient, `${base}/full/full/0`)).statusCode).toBe(404);
      });

      it('refuses an invalid token', async () => {
        const response = await get(new Client(app, 'nope'), `${base}/info.json`);
        expect(response.statusCode).toBe(401);
      });

      it('sets no cookie on IIIF responses', async () => {
        const response = await get(anonymous, `/iiif/${bitonalImage.id}/full/50,/0/default.jpg`);
        expect(response.headers['set-cookie']).toBeUndefined();
      });
    });

    describe('caching', () => {
      it('sends immutable caching headers and a strong ETag, and 304 when it matches', async () => {
        const url = `${base}/0,0,256,256/64,/0/default.jpg`;
        const first = await get(memberClient, url);
        expect(first.statusCode).toBe(200);
        expect(first.headers['cache-control']).toBe('private, max-age=31536000, immutable');
        const etag = first.headers.etag as string;
        expect(etag).toMatch(/^"[\w-]{20,}"$/);
        const again = await get(memberClient, url, { 'if-none-match': etag });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
        expect(again.headers.etag).toBe(etag);
        const other = await get(memberClient, `${base}/0,0,256,256/65,/0/default.jpg`, {
          'if-none-match': etag,
        });
        expect(other.statusCode).toBe(200);
        expect(other.headers.etag).not.toBe(etag);
        const info = await get(memberClient, `${base}/info.json`);
        const infoAgain = await get(memberClient, `${base}/info.json`, {
          'if-none-match': info.headers.etag as string,
        });
        expect(infoAgain.statusCode).toBe(304);
      });

      it('serves a repeated request from the disk cache without rendering', async () => {
        const url = `${base}/100,100,300,300/150,/0/default.jpg`;
        const before = renderStats.renders;
        const first = await get(memberClient, url);
        expect(renderStats.renders).toBe(before + 1);
        const folder = iiifCacheDir(t().config.dataDir, privateImage.id);
        const etag = (first.headers.etag as string).slice(1, -1);
        const cached = path.join(folder, `${etag}.jpg`);
        expect(fs.readFileSync(cached).equals(first.rawPayload)).toBe(true);
        expect(fs.readdirSync(folder).some((name) => name.endsWith('.tmp'))).toBe(false);

        const second = await get(memberClient, url);
        expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
        // The same output asked for through another spelling is the same cache entry.
        const synonym = await get(memberClient, `${base}/100,100,300,300/150,150/360/color.jpg`);
        expect(synonym.headers.etag).toBe(first.headers.etag);
        expect(renderStats.renders).toBe(before + 1);

        // Served from disk: what is in the file is what is sent.
        fs.writeFileSync(cached, Buffer.from('from the cache'));
        expect((await get(memberClient, url)).body).toBe('from the cache');
        fs.rmSync(cached);
        const rendered = await get(memberClient, url);
        expect(renderStats.renders).toBe(before + 2);
        expect((await sharp(rendered.rawPayload).metadata()).width).toBe(150);
      });

      it('renders an uncached output once when it is asked for several times at once', async () => {
        const url = `${base}/700,700,500,500/250,/0/default.jpg`;
        const before = renderStats.renders;
        const responses = await Promise.all(
          Array.from({ length: 6 }, () => get(memberClient, url)),
        );
        expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
        expect(renderStats.renders).toBe(before + 1);
        for (const response of responses) {
          expect(response.rawPayload.equals(responses[0]!.rawPayload)).toBe(true);
        }
      });
    });

    describe('CORS (the whole rule: cors.test.ts)', () => {
      const origin = 'https://viewer.example.org';

      it('answers a public image, its info.json and its errors to any origin, without credentials', async () => {
        const publicBase = `/iiif/${publicCorpusImage.id}`;
        for (const [url, status] of [
          [`${publicBase}/full/64,/0/default.jpg`, 200],
          [`${publicBase}/info.json`, 200],
          [`${publicBase}/full/full/0/default.gif`, 400],
        ] as const) {
          const response = await get(memberClient, url, { origin });
          expect(response.statusCode).toBe(status);
          expect(response.headers['access-control-allow-origin']).toBe('*');
          expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        }
      });

      it('answers a private image to no other origin, even for a member', async () => {
        for (const url of [`${base}/full/64,/0/default.jpg`, `${base}/info.json`]) {
          const response = await get(memberClient, url, { origin });
          expect(response.statusCode).toBe(200);
          expect(response.headers['access-control-allow-origin']).toBeUndefined();
          expect(String(response.headers.vary)).toMatch(/\bOrigin\b/);
        }
      });

      it('answers preflight requests for reads from any origin', async () => {
        const response = await app.inject({
          method: 'OPTIONS',
          url: `${base}/full/64,/0/default.jpg`,
          headers: {
            origin,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        });
        expect(response.statusCode).toBe(204);
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
        expect(response.headers['access-control-allow-headers']).toMatch(/\bAuthorization\b/);
      });
    });
  },
  { FOLIA_IIIF_MEMORY_MB: '0' },
);
