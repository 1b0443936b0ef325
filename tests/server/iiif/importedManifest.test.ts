import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport } from '../../../server/imports/execute';
import { Client, describeEachDialect } from '../harness';
import { makeActors, makeCorpus, type Actors } from '../actors';
import { insertElements } from '../elementsFixtures';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../sharedData';
import { expectPresentation21, readAsViewer } from './presentation21';

const IMAGES = 'https://images.example.org/iiif/2';

function v2Canvas(n: number) {
  const id = `https://example.org/ms1/canvas/c${n}`;
  return {
    '@id': id,
    '@type': 'sc:Canvas',
    label: `f. ${n}r`,
    width: 1000,
    height: 1400,
    images: [
      {
        '@type': 'oa:Annotation',
        motivation: 'sc:painting',
        on: id,
        resource: {
          '@id': `${IMAGES}/ms1-${n}/full/full/0/default.jpg`,
          '@type': 'dctypes:Image',
          service: {
            '@context': 'http://iiif.io/api/image/2/context.json',
            '@id': `${IMAGES}/ms1-${n}`,
            profile: 'http://iiif.io/api/image/2/level2.json',
          },
        },
      },
    ],
  };
}

/** Presentation 2: a top range, nested ranges by id, a canvas named with a fragment. */
const V2 = {
  '@context': 'http://iiif.io/api/presentation/2/context.json',
  '@id': 'https://example.org/ms1/manifest',
  '@type': 'sc:Manifest',
  label: 'Psalter',
  license: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Provided by the Example Library',
  logo: { '@id': 'https://example.org/logo.png' },
  sequences: [{ '@type': 'sc:Sequence', canvases: [1, 2, 3, 4].map(v2Canvas) }],
  structures: [
    {
      '@id': 'https://example.org/ms1/range/toc',
      '@type': 'sc:Range',
      label: 'Table of contents',
      viewingHint: 'top',
      ranges: ['https://example.org/ms1/range/r1', 'https://example.org/ms1/range/r2'],
    },
    {
      '@id': 'https://example.org/ms1/range/r1',
      '@type': 'sc:Range',
      label: 'Calendar',
      canvases: ['https://example.org/ms1/canvas/c1', 'https://example.org/ms1/canvas/c2'],
    },
    {
      '@id': 'https://example.org/ms1/range/r2',
      '@type': 'sc:Range',
      label: 'Psalms',
      canvases: ['https://example.org/ms1/canvas/c3'],
      ranges: ['https://example.org/ms1/range/r3'],
    },
    {
      '@id': 'https://example.org/ms1/range/r3',
      '@type': 'sc:Range',
      label: 'Psalm 1',
      canvases: [
        'https://example.org/ms1/canvas/c3#xywh=0,0,500,700',
        'https://example.org/ms1/canvas/c4',
      ],
    },
  ],
};

function v3Canvas(n: number) {
  const id = `https://example.org/ms2/canvas/${n}`;
  return {
    id,
    type: 'Canvas',
    label: { none: [`p. ${n}`] },
    width: 800,
    height: 1200,
    items: [
      {
        id: `${id}/page`,
        type: 'AnnotationPage',
        items: [
          {
            id: `${id}/page/1`,
            type: 'Annotation',
            motivation: 'painting',
            target: id,
            body: {
              id: `${IMAGES}/ms2-${n}/full/max/0/default.jpg`,
              type: 'Image',
              service: [{ id: `${IMAGES}/ms2-${n}`, type: 'ImageService2', profile: 'level2' }],
            },
          },
        ],
      },
    ],
  };
}

/** Presentation 3: embedded ranges, a part of a canvas, rights and a required statement. */
const V3 = {
  '@context': 'http://iiif.io/api/presentation/3/context.json',
  id: 'https://example.org/ms2/manifest',
  type: 'Manifest',
  label: { en: ['Book of hours'] },
  rights: 'http://rightsstatements.org/vocab/NoC-NC/1.0/',
  requiredStatement: {
    label: { en: ['Attribution'] },
    value: { en: ['Example Museum'] },
  },
  provider: [
    {
      id: 'https://example.org/about',
      type: 'Agent',
      label: { en: ['Example Museum'] },
      logo: [{ id: 'https://example.org/museum-logo.png', type: 'Image' }],
    },
  ],
  items: [1, 2, 3].map(v3Canvas),
  structures: [
    {
      id: 'https://example.org/ms2/range/1',
      type: 'Range',
      label: { en: ['Hours of the Virgin'] },
      items: [
        { id: 'https://example.org/ms2/canvas/1', type: 'Canvas' },
        {
          id: 'https://example.org/ms2/range/1a',
          type: 'Range',
          label: { en: ['Matins'] },
          items: [
            {
              type: 'SpecificResource',
              source: 'https://example.org/ms2/canvas/2',
              selector: { type: 'FragmentSelector', value: 'xywh=0,0,100,100' },
            },
          ],
        },
      ],
    },
    {
      id: 'https://example.org/ms2/range/2',
      type: 'Range',
      label: { en: ['Office of the Dead'] },
      items: [{ id: 'https://example.org/ms2/canvas/3', type: 'Canvas' }],
    },
  ],
};

const PSALTER = {
  label: 'Psalter',
  canvases: ['f. 1r', 'f. 2r', 'f. 3r', 'f. 4r'],
  ranges: [
    { label: 'Calendar', canvases: ['f. 1r', 'f. 2r'], ranges: [] },
    {
      label: 'Psalms',
      canvases: ['f. 3r'],
      ranges: [{ label: 'Psalm 1', canvases: ['f. 3r', 'f. 4r'], ranges: [] }],
    },
  ],
  license: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Provided by the Example Library',
  logo: 'https://example.org/logo.png',
};

const BOOK_OF_HOURS = {
  label: 'Book of hours',
  canvases: ['p. 1', 'p. 2', 'p. 3'],
  ranges: [
    {
      label: 'Hours of the Virgin',
      canvases: ['p. 1'],
      ranges: [{ label: 'Matins', canvases: ['p. 2'], ranges: [] }],
    },
    { label: 'Office of the Dead', canvases: ['p. 3'], ranges: [] },
  ],
  license: 'http://rightsstatements.org/vocab/NoC-NC/1.0/',
  attribution: 'Example Museum',
  logo: 'https://example.org/museum-logo.png',
};

describeEachDialect('imported manifests served back', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let owner: Client;
  let dir: string;
  let folders: Record<string, string>;

  const childFolder = async (parentId: string, name: string) => {
    const response = await owner.get(`elements/${parentId}/children/?page_size=500`);
    return response.json().results.find((child: { name: string }) => child.name === name).id;
  };
  const manifest = async (id: string) => {
    const response = await owner.get(`iiif/${id}/manifest/`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    const { app, config } = t();
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Manuscripts' });
    owner = new Client(app, actors.owner.token);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-manifests-'));
    fs.writeFileSync(path.join(dir, 'psalter.json'), JSON.stringify(V2));
    fs.writeFileSync(path.join(dir, 'hours.json'), JSON.stringify(V3));
    folders = await insertElements(app, corpusId, [{ name: 'Library', type: 'folder' }]);
    for (const file of ['psalter.json', 'hours.json']) {
      const report = await runImport(
        { db: app.db, dataDir: config.dataDir },
        path.join(dir, file),
        {
          corpusId,
          userId: actors.owner.id,
          parentId: folders.Library!,
        },
      );
      expect(report.problems).toEqual([]);
    }
    folders.Psalter = await childFolder(folders.Library!, 'Psalter');
    folders['Book of hours'] = await childFolder(folders.Library!, 'Book of hours');
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps the ranges, licence, attribution and logo of a Presentation 2 manifest', async () => {
    const served = await manifest(folders.Psalter!);
    expectPresentation21(served);
    expect(readAsViewer(served)).toEqual(PSALTER);
    expect(served).toMatchObject({
      license: 'https://creativecommons.org/licenses/by/4.0/',
      attribution: 'Provided by the Example Library',
      logo: 'https://example.org/logo.png',
    });
  });

  it('keeps the ranges, rights and required statement of a Presentation 3 manifest', async () => {
    const served = await manifest(folders['Book of hours']!);
    expectPresentation21(served);
    expect(readAsViewer(served)).toEqual(BOOK_OF_HOURS);
    expect(served.attribution).toEqual({ '@value': 'Example Museum', '@language': 'en' });
  });

  it('points the ranges at the pages the canvases became', async () => {
    const served = await manifest(folders.Psalter!);
    const pages = (await owner.get(`elements/${folders.Psalter}/children/`)).json().results;
    const pageId = (name: string) => pages.find((page: { name: string }) => page.name === name).id;
    const psalm = served.structures.find((range: { label: string }) => range.label === 'Psalm 1');
    expect(psalm.canvases).toEqual(
      ['f. 3r', 'f. 4r'].map((name) =>
        expect.stringMatching(
          new RegExp(`/api/v1/iiif/${folders.Psalter}/canvas/${pageId(name)}/$`),
        ),
      ),
    );
  });

  it('nests both under the folder they were imported into, each with its own rights', async () => {
    const served = await manifest(folders.Library!);
    expectPresentation21(served);
    const read = readAsViewer(served);
    expect(read.canvases).toEqual([...PSALTER.canvases, ...BOOK_OF_HOURS.canvases]);
    expect(read.ranges).toEqual([
      { label: 'Psalter', canvases: PSALTER.canvases, ranges: PSALTER.ranges },
      { label: 'Book of hours', canvases: BOOK_OF_HOURS.canvases, ranges: BOOK_OF_HOURS.ranges },
    ]);
    // The folder itself has no licence: each manifest's stays on its range.
    expect(served).not.toHaveProperty('license');
    const psalter = served.structures.find((range: { label: string }) => range.label === 'Psalter');
    expect(psalter).toMatchObject({
      license: PSALTER.license,
      attribution: PSALTER.attribution,
      logo: PSALTER.logo,
    });
  });

  it('leaves a deleted page out of the ranges, and drops a range left empty', async () => {
    const served = await manifest(folders.Psalter!);
    const calendar = served.structures.find((r: { label: string }) => r.label === 'Calendar');
    const ids = calendar.canvases.map((id: string) => id.split('/').at(-2));
    for (const id of ids) {
      const deleted = await owner.delete(`element/${id}/`);
      expect(deleted.statusCode).toBeLessThan(300);
    }
    await t().app.jobs.drain();
    const after = await manifest(folders.Psalter!);
    expectPresentation21(after);
    expect(readAsViewer(after).ranges).toEqual(PSALTER.ranges.slice(1));
  });

  it.runIf(sharedDataAvailable())(
    'keeps the 14 ranges and the licence of the Wellcome herbal',
    async () => {
      const { app, config } = t();
      const report = await runImport(
        { db: app.db, dataDir: config.dataDir },
        path.join(SHARED_DATA_DIR, 'iiif', 'herbal.json'),
        { corpusId, userId: actors.owner.id, parentId: null },
      );
      expect(report.pages).toBe(318);
      const herbal = (
        await owner.get(`corpus/${corpusId}/elements/?name=Herbal&type=folder`)
      ).json().results[0];
      const served = await manifest(herbal.id);
      expectPresentation21(served);
      const source = JSON.parse(
        fs.readFileSync(path.join(SHARED_DATA_DIR, 'iiif', 'herbal.json'), 'utf8'),
      );
      const read = readAsViewer(served);
      expect(read.ranges.map((range) => range.label)).toEqual(
        source.structures.map((range: { label: string }) => range.label),
      );
      expect(read.ranges.map((range) => range.canvases.length)).toEqual(
        source.structures.map((range: { canvases: string[] }) => range.canvases.length),
      );
      expect(read.license).toBe('https://creativecommons.org/publicdomain/mark/1.0/');
      expect(read.logo).toBe(source.logo);
    },
  );
});
