import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { infoJson } from '../../../server/iiif/info';
import { wantsJsonLd } from '../../../server/manifestMediaType';
import { createElements } from '../../../server/services/elements/create';
import { MAX_CANVASES } from '../../../server/services/elements/manifest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from '../actors';
import { insertElements, makeImage, typeIds } from '../elementsFixtures';
import { expectPresentation21, readAsViewer, thumbnailUri } from './presentation21';

const LEVEL2 = 'http://iiif.io/api/image/2/level2.json';
const JSON_LD = 'application/ld+json;profile="http://iiif.io/api/presentation/2/context.json"';

/** An image stored on this server (its file is not needed to describe it). */
async function localImage(app: FastifyInstance, corpusId: string) {
  const id = randomUUID();
  await app.db
    .insertInto('images')
    .values({
      id,
      corpus_id: corpusId,
      path: `${id}.tif`,
      url: null,
      width: 2000,
      height: 3000,
      status: 'checked',
      mime: 'image/tiff',
      hash: null,
      created: new Date().toISOString(),
    })
    .execute();
  return id;
}

describe('Accept negotiation of manifests', () => {
  it.each([
    ['application/ld+json', true],
    ['application/ld+json;profile="http://iiif.io/api/presentation/2/context.json"', true],
    ['application/json, application/ld+json', true],
    ['application/json, application/ld+json;q=0.5', false],
    ['application/ld+json;q=0', false],
    ['application/json', false],
    ['*/*', false],
    [undefined, false],
  ])('Accept %s asks for JSON-LD: %s', (accept, expected) => {
    expect(wantsJsonLd(accept)).toBe(expected);
  });
});

describeEachDialect('folder manifests', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let ids: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const manifestOf = async (name: string, role: Role = 'guest') => {
    const response = await as(role).get(`iiif/${ids[name]}/manifest/`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    const { app } = t();
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Registers' });
    const remote = (await makeImage(app, corpusId, 1000, 1500)).id;
    const local = await localImage(app, corpusId);
    // Pages only in sub-folders, at two levels, a quire between two pages of a volume.
    ids = await insertElements(app, corpusId, [
      { name: 'Register', type: 'folder' },
      { name: 'Volume 1', type: 'folder', parent: 'Register' },
      { name: 'Volume 2', type: 'folder', parent: 'Register' },
      { name: 'a1', type: 'page', parent: 'Volume 1', image: local },
      { name: 'Quire 1', type: 'folder', parent: 'Volume 1' },
      { name: 'q1', type: 'page', parent: 'Quire 1', image: remote },
      { name: 'q2', type: 'page', parent: 'Quire 1', image: remote },
      { name: 'a2', type: 'page', parent: 'Volume 1', image: remote },
      { name: 'Empty', type: 'folder', parent: 'Volume 2' },
      { name: 'b1', type: 'page', parent: 'Volume 2', image: remote },
      { name: 'Mixed', type: 'folder' },
      { name: 'm1', type: 'page', parent: 'Mixed', image: remote },
      { name: 'Part', type: 'folder', parent: 'Mixed' },
      { name: 'm2', type: 'page', parent: 'Part', image: remote },
    ]);
  });

  it('gives a folder whose pages are all in sub-folders the canvases of every page below it', async () => {
    const manifest = await manifestOf('Register');
    expectPresentation21(manifest);
    expect(readAsViewer(manifest).canvases).toEqual(['a1', 'q1', 'q2', 'a2', 'b1']);
  });

  it('gives each sub-folder a range, nested as the folders are', async () => {
    const manifest = await manifestOf('Register');
    expect(readAsViewer(manifest).ranges).toEqual([
      {
        label: 'Volume 1',
        canvases: ['a1', 'q1', 'q2', 'a2'],
        ranges: [{ label: 'Quire 1', canvases: ['q1', 'q2'], ranges: [] }],
      },
      { label: 'Volume 2', canvases: ['b1'], ranges: [] },
    ]);
    const top = manifest.structures.find((r: { viewingHint?: string }) => r.viewingHint);
    expect(top).toMatchObject({ label: 'Register', viewingHint: 'top' });
    expect(top['@id']).toMatch(new RegExp(`/api/v1/iiif/${ids.Register}/range/${ids.Register}/$`));
  });

  it('keeps pages and sub-folders of one folder in their order', async () => {
    const manifest = await manifestOf('Mixed');
    expectPresentation21(manifest);
    expect(readAsViewer(manifest)).toMatchObject({
      canvases: ['m1', 'm2'],
      ranges: [{ label: 'Part', canvases: ['m2'], ranges: [] }],
    });
  });

  it('describes a folder of pages as before, without ranges', async () => {
    const manifest = await manifestOf('Quire 1');
    expectPresentation21(manifest);
    expect(manifest).not.toHaveProperty('structures');
    expect(manifest).not.toHaveProperty('description');
    expect(readAsViewer(manifest).canvases).toEqual(['q1', 'q2']);
    expect(manifest.sequences[0].canvases[0]['@id']).toMatch(
      new RegExp(`/api/v1/iiif/${ids['Quire 1']}/canvas/${ids.q1}/$`),
    );
  });

  it('says its own images are level 2, as their info.json does', async () => {
    const manifest = await manifestOf('Volume 1');
    const [a1, q1] = manifest.sequences[0].canvases;
    const service = a1.images[0].resource.service;
    expect(service.profile).toBe(LEVEL2);
    expect(service['@id']).toMatch(/\/iiif\/[0-9a-f-]{36}$/);
    const info = infoJson(service['@id'], { width: 2000, height: 3000 }, []);
    expect((info.profile as unknown[])[0]).toBe(service.profile);
    // A viewer builds thumbnails from the service, not the full image.
    expect(thumbnailUri(manifest, 0, 200)).toBe(`${service['@id']}/full/200,/0/default.jpg`);
    // Images on other servers are only known to answer regions and sizes.
    expect(q1.images[0].resource.service.profile).toBe('http://iiif.io/api/image/2/level1.json');
  });

  it('is JSON-LD when asked for, JSON otherwise', async () => {
    const url = `iiif/${ids.Register}/manifest/`;
    const plain = await as('guest').get(url);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(String(plain.headers.vary)).toMatch(/\bAccept\b/);
    for (const accept of ['application/ld+json', JSON_LD, 'application/ld+json, */*;q=0.1']) {
      const ld = await as('guest').get(url, { accept });
      expect(ld.statusCode).toBe(200);
      expect(ld.headers['content-type']).toBe(JSON_LD);
      expect(ld.json()).toEqual(plain.json());
    }
    const json = await as('guest').get(url, { accept: 'application/json' });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
  });

  it('stays 404 for pages, outsiders and anonymous callers of a private project', async () => {
    expect((await as('guest').get(`iiif/${ids.a1}/manifest/`)).statusCode).toBe(404);
    expect((await as('outsider').get(`iiif/${ids.Register}/manifest/`)).statusCode).toBe(404);
    const anonymous = await as('anonymous').get(`iiif/${ids.Register}/manifest/`, {
      accept: 'application/ld+json',
    });
    expect(anonymous.statusCode).toBe(404);
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
  });

  it(`shows at most ${MAX_CANVASES} pages and says so`, async () => {
    const { app } = t();
    const types = await typeIds(app, corpusId);
    const image = (await makeImage(app, corpusId, 100, 100)).id;
    const made = await insertElements(app, corpusId, [
      { name: 'Big', type: 'folder' },
      { name: 'Big part', type: 'folder', parent: 'Big' },
    ]);
    const big = made.Big!;
    const part = made['Big part']!;
    await app.db.transaction().execute((trx) =>
      createElements(
        trx,
        Array.from({ length: MAX_CANVASES + 1 }, (_, i) => ({
          corpusId,
          typeId: types.page!,
          name: `p${i + 1}`,
          parentId: part,
          imageId: image,
        })),
      ),
    );
    const response = await as('guest').get(`iiif/${big}/manifest/`);
    expect(response.statusCode).toBe(200);
    const manifest = response.json();
    expectPresentation21(manifest);
    const canvases = manifest.sequences[0].canvases;
    expect(canvases).toHaveLength(MAX_CANVASES);
    expect(canvases.at(-1).label).toBe(`p${MAX_CANVASES}`);
    expect(manifest.description).toBe(
      `Only the first ${MAX_CANVASES} pages below this folder are shown here; each sub-folder has a manifest of its own.`,
    );
    expect(readAsViewer(manifest).ranges[0]!.canvases).toHaveLength(MAX_CANVASES);
  });
});
