/**
 * API answers and the app's files cross a tablet's link compressed, as the browser accepts:
 * brotli or gzip for JSON, the build's .br/.gz copies for the app's files; never images (JPEG
 * and PNG are compressed already), never a 304's empty body.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { precompressDir } from '../../server/precompress';
import { storeImage } from '../../server/services/images';
import { Client, describeEachDialect } from './harness';
import { makeActorsAndProjects } from './actors';
import { insertElements } from './elementsFixtures';

function decoded(response: LightMyRequestResponse): Buffer {
  const body = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(body);
    case 'gzip':
      return zlib.gunzipSync(body);
    case undefined:
      return body;
    default:
      throw new Error(`unexpected encoding ${String(response.headers['content-encoding'])}`);
  }
}

const vary = (response: LightMyRequestResponse) =>
  String(response.headers.vary ?? '')
    .toLowerCase()
    .split(/,\s*/);

describeEachDialect('API answers are compressed as the client accepts', ({ t }) => {
  let owner: Client;
  let corpusId = '';
  let listUrl = '';
  let identity: LightMyRequestResponse;

  beforeAll(async () => {
    const app = t().app;
    const { actors, privateId } = await makeActorsAndProjects(app);
    corpusId = privateId;
    owner = new Client(app, actors.owner.token);
    await insertElements(
      app,
      corpusId,
      Array.from({ length: 120 }, (_, i) => ({ name: `Page ${i + 1}`, type: 'page' })),
    );
    listUrl = `corpus/${corpusId}/elements/?page_size=500`;
    identity = await owner.get(listUrl);
  });

  it('sends a large element list raw to a client that names no encoding', () => {
    expect(identity.statusCode).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json().results).toHaveLength(120);
    expect(identity.rawPayload.length).toBeGreaterThan(20_000);
  });

  for (const [accept, encoding] of [
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
  ] as const) {
    it(`sends it as ${encoding} to Accept-Encoding: ${accept}, the same JSON once decoded`, async () => {
      const response = await owner.get(listUrl, { 'accept-encoding': accept });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(vary(response)).toContain('accept-encoding');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('private, no-cache');
      // A tenth or less of the bytes: element lists repeat the same keys and types.
      expect(response.rawPayload.length).toBeLessThan(identity.rawPayload.length / 8);
      expect(JSON.parse(decoded(response).toString('utf8'))).toEqual(identity.json());
    });
  }

  it('leaves small answers raw: compressing them would save less than the headers weigh', async () => {
    const response = await owner.get('/api/v1/', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('compresses refusals too, and a HEAD says the same headers with no body', async () => {
    const head = await owner.request('HEAD', listUrl, undefined, { 'accept-encoding': 'gzip' });
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    const refused = await owner.get(`corpus/${corpusId}/elements/?type=${'x'.repeat(2000)}`, {
      'accept-encoding': 'gzip',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-encoding']).toBe('gzip');
    const refusal = JSON.parse(decoded(refused).toString('utf8'));
    expect(refusal.errors[0].detail).toBe(`Type '${'x'.repeat(2000)}' not found.`);
  });

  it('answers 304 with an empty body and its Last-Modified, whatever the encoding', async () => {
    const app = t().app;
    const [folderId] = Object.values(
      await insertElements(app, corpusId, [
        { name: 'Folder', type: 'folder' },
        ...Array.from({ length: 40 }, (_, i) => ({
          name: `Leaf ${i}`,
          type: 'page',
          parent: 'Folder',
        })),
      ]),
    );
    // Dated to a whole second in the past, as Last-Modified states it.
    await app.db
      .updateTable('elements')
      .set({ children_updated: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', folderId!)
      .execute();
    const url = `elements/${folderId}/children/?page_size=100`;
    const full = await owner.get(url, { 'accept-encoding': 'br' });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-encoding']).toBe('br');
    const lastModified = String(full.headers['last-modified']);
    expect(lastModified).toBe('Wed, 01 Jan 2020 00:00:00 GMT');
    expect(JSON.parse(decoded(full).toString('utf8')).results).toHaveLength(40);
    const same = await owner.get(url, {
      'accept-encoding': 'br',
      'if-modified-since': lastModified,
    });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    expect(same.headers['content-encoding']).toBeUndefined();
    expect(same.headers['last-modified']).toBe(lastModified);
  });

  it('sends images as they are: JPEG and PNG are compressed already', async () => {
    const app = t().app;
    const image = await storeImage(app, {
      corpusId: null,
      buffer: await sharp({ create: { width: 600, height: 400, channels: 3, background: '#963' } })
        .jpeg()
        .toBuffer(),
    });
    const client = new Client(app);
    for (const format of ['jpg', 'png']) {
      const tile = await client.get(`/iiif/${image.id}/full/max/0/default.${format}`, {
        'accept-encoding': 'br, gzip',
      });
      expect(tile.statusCode).toBe(200);
      expect(tile.headers['content-encoding']).toBeUndefined();
      expect(tile.rawPayload.length).toBeGreaterThan(1024);
      const metadata = await sharp(tile.rawPayload).metadata();
      expect([metadata.width, metadata.height]).toEqual([600, 400]);
    }
  });
});

describe("the app's files are sent as their build-time brotli and gzip copies", () => {
  let app: FastifyInstance;
  let dataDir = '';
  const script = `export const words = [${Array.from({ length: 2000 }, (_, i) => `"word ${i}"`).join(',')}];\n`;
  const html = `<!doctype html><html><head><title>Folia</title></head><body>${'<p>Folia</p>'.repeat(200)}</body></html>`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-test-'));
    const distDir = path.join(dataDir, 'dist');
    fs.mkdirSync(path.join(distDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(distDir, 'index.html'), html);
    fs.writeFileSync(path.join(distDir, 'assets', 'index-abc.js'), script);
    fs.writeFileSync(path.join(distDir, 'assets', 'tiny.js'), 'export {};\n');
    fs.writeFileSync(
      path.join(distDir, 'icon.png'),
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123' } })
        .png()
        .toBuffer(),
    );
    const made = precompressDir(distDir);
    expect(made.files).toBe(2);
    expect(fs.existsSync(path.join(distDir, 'assets', 'index-abc.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(distDir, 'assets', 'index-abc.js.gz'))).toBe(true);
    // Under a kilobyte, and images: no copies.
    expect(fs.existsSync(path.join(distDir, 'assets', 'tiny.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(distDir, 'icon.png.br'))).toBe(false);
    app = await buildApp(
      { ...loadConfig({ FOLIA_DATA_DIR: dataDir, FOLIA_LOG: '0' }), distDir },
      { startJobs: false },
    );
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  it('sends the brotli copy to a browser that takes brotli, gzip to one that takes gzip', async () => {
    const raw = await get('/assets/index-abc.js');
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body).toBe(script);
    expect(vary(raw)).toContain('accept-encoding');

    const br = await get('/assets/index-abc.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(vary(br)).toContain('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(script.length / 5);
    expect(decoded(br).toString('utf8')).toBe(script);

    const gz = await get('/assets/index-abc.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz).toString('utf8')).toBe(script);
  });

  it('sends the app shell compressed on every client-side route, revalidated each time', async () => {
    for (const url of ['/', '/projects', '/element/abc']) {
      const response = await get(url, { 'accept-encoding': 'br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(decoded(response).toString('utf8')).toBe(html);
    }
    const raw = await get('/projects');
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body).toBe(html);
  });

  it('sends small files and images raw, and a HEAD without a body', async () => {
    const tiny = await get('/assets/tiny.js', { 'accept-encoding': 'br' });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
    const icon = await get('/icon.png', { 'accept-encoding': 'br, gzip' });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect((await sharp(icon.rawPayload).metadata()).width).toBe(64);
    const head = await app.inject({
      method: 'HEAD',
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.rawPayload.length).toBe(0);
  });
});
