import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../../server/imports/formats/detect';
import { labelText, parseIiifManifest } from '../../../../server/imports/formats/iiifManifest';
import { ImportFormatError } from '../../../../server/imports/formats/types';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../../sharedData';

const iiifDir = path.join(SHARED_DATA_DIR, 'iiif');
const hasData = sharedDataAvailable() && existsSync(path.join(iiifDir, 'herbal.json'));
if (!hasData)
  console.warn(`Shared IIIF manifests not found at ${iiifDir}: their tests are skipped.`);
const shared = hasData ? describe : describe.skip;

const read = (name: string) => readFileSync(path.join(iiifDir, name), 'utf8');

shared(hasData ? 'shared manifests' : `shared manifests (SKIPPED: ${iiifDir} is missing)`, () => {
  it('reads the Wellcome herbal (Presentation 2)', () => {
    const text = read('herbal.json');
    expect(detectFormat(text, 'herbal.json')).toBe('iiif-manifest');
    const manifest = parseIiifManifest(text);
    expect(manifest).toMatchObject({
      version: 2,
      id: 'http://wellcomelibrary.org/iiif/b19646045/manifest',
      label: 'Herbal',
      warnings: [],
    });
    expect(manifest.canvases).toHaveLength(318);
    expect(manifest.canvases[0]).toEqual({
      id: 'http://wellcomelibrary.org/iiif/b19646045/canvas/c0',
      label: '-',
      width: 4892,
      height: 6923,
      imageServiceUrl:
        'http://wellcomelibrary.org/iiif-img/b19646045-0/f5137a50-1159-4742-8932-bc53a8d633c0',
      imageUrl:
        'http://wellcomelibrary.org/iiif-img/b19646045-0/f5137a50-1159-4742-8932-bc53a8d633c0/full/!1024,1024/0/default.jpg',
    });
    expect(manifest.canvases.at(-1)).toMatchObject({
      id: 'http://wellcomelibrary.org/iiif/b19646045/canvas/c317',
      width: 4375,
      height: 6296,
    });
    expect(new Set(manifest.canvases.map((c) => c.id)).size).toBe(318);
    expect(
      manifest.canvases.every((c) =>
        c.imageServiceUrl?.startsWith('http://wellcomelibrary.org/iiif-img/'),
      ),
    ).toBe(true);
  });

  it('reads the Yale Canterbury tales (Presentation 3)', () => {
    const text = read('YaleCanterburyTalesV3ProviderNoLogo.json');
    expect(detectFormat(text, 'YaleCanterburyTalesV3ProviderNoLogo.json')).toBe('iiif-manifest');
    const manifest = parseIiifManifest(text);
    expect(manifest).toMatchObject({
      version: 3,
      id: 'https://collections.library.yale.edu/manifests/16371215',
      label: 'Canterbury tales',
      warnings: [],
    });
    expect(manifest.canvases).toHaveLength(170);
    expect(manifest.canvases[0]).toEqual({
      id: 'https://collections.library.yale.edu/manifests/oid/16371215/canvas/16395012',
      label: '[Front cover]',
      width: 2792,
      height: 3616,
      imageServiceUrl: 'https://collections.library.yale.edu/iiif/2/16395012',
      imageUrl: 'https://collections.library.yale.edu/iiif/2/16395012/full/full/0/default.jpg',
    });
    expect(manifest.canvases.at(-1)).toMatchObject({
      label: '[Back cover]',
      width: 2843,
      height: 3635,
    });
    expect(new Set(manifest.canvases.map((c) => c.id)).size).toBe(170);
  });
});

function v3(canvases: unknown[], extra: Record<string, unknown> = {}): unknown {
  return {
    '@context': 'http://iiif.io/api/presentation/3/context.json',
    id: 'https://example.org/manifest',
    type: 'Manifest',
    label: { en: ['A book'] },
    items: canvases,
    ...extra,
  };
}

function v3Canvas(
  n: number,
  body: unknown,
  size: Record<string, unknown> = { width: 100, height: 200 },
) {
  return {
    id: `https://example.org/canvas/${n}`,
    type: 'Canvas',
    label: { none: [`f. ${n}`] },
    ...size,
    items: [
      {
        id: `https://example.org/page/${n}`,
        type: 'AnnotationPage',
        items: [
          { id: `https://example.org/anno/${n}`, type: 'Annotation', motivation: 'painting', body },
        ],
      },
    ],
  };
}

const image = (n: number, service?: unknown) => ({
  id: `https://example.org/img/${n}/full/max/0/default.jpg`,
  type: 'Image',
  width: 1000,
  height: 2000,
  ...(service === undefined ? {} : { service }),
});

describe('parseIiifManifest', () => {
  it('reads Presentation 3 services written with id or @id, and strips /info.json', () => {
    const manifest = parseIiifManifest(
      v3([
        v3Canvas(
          1,
          image(1, [
            {
              id: 'https://example.org/iiif/1/info.json',
              type: 'ImageService3',
              profile: 'level1',
            },
          ]),
        ),
        v3Canvas(2, image(2, [{ '@id': 'https://example.org/iiif/2/', '@type': 'ImageService2' }])),
        v3Canvas(
          3,
          image(3, [
            { id: 'https://example.org/auth', type: 'AuthProbeService2' },
            {
              '@id': 'https://example.org/iiif/3',
              profile: 'http://iiif.io/api/image/2/level2.json',
            },
          ]),
        ),
      ]),
    );
    expect(manifest.canvases.map((c) => c.imageServiceUrl)).toEqual([
      'https://example.org/iiif/1',
      'https://example.org/iiif/2',
      'https://example.org/iiif/3',
    ]);
    expect(manifest.canvases[0]).toMatchObject({ label: 'f. 1', width: 100, height: 200 });
    expect(manifest.label).toBe('A book');
    expect(manifest.warnings).toEqual([]);
  });

  it('uses the image URL and warns once when canvases have no image service', () => {
    const manifest = parseIiifManifest(
      JSON.stringify(v3([1, 2, 3, 4].map((n) => v3Canvas(n, image(n))))),
    );
    expect(manifest.canvases.map((c) => [c.imageServiceUrl, c.imageUrl])).toEqual(
      [1, 2, 3, 4].map((n) => [null, `https://example.org/img/${n}/full/max/0/default.jpg`]),
    );
    expect(manifest.warnings).toEqual([
      '4 canvases without a IIIF Image service: the image URL is used as is (https://example.org/canvas/1, https://example.org/canvas/2, https://example.org/canvas/3, …).',
    ]);
  });

  it('skips canvases without an image or a size, and sizes a canvas from its image when needed', () => {
    const manifest = parseIiifManifest(
      v3([
        v3Canvas(1, undefined),
        v3Canvas(2, { id: 'https://example.org/img/2', type: 'Image' }, {}),
        v3Canvas(3, image(3, { id: 'https://example.org/iiif/3', type: 'ImageService3' }), {}),
        v3Canvas(4, {
          type: 'Choice',
          items: [image(4, { id: 'https://example.org/iiif/4', type: 'ImageService3' })],
        }),
      ]),
    );
    expect(manifest.canvases.map((c) => [c.id, c.width, c.height, c.imageServiceUrl])).toEqual([
      ['https://example.org/canvas/3', 1000, 2000, 'https://example.org/iiif/3'],
      ['https://example.org/canvas/4', 100, 200, 'https://example.org/iiif/4'],
    ]);
    expect(manifest.warnings).toEqual([
      '1 canvas skipped: no painting image (https://example.org/canvas/1).',
      '1 canvas skipped: no width and height (https://example.org/canvas/2).',
      "1 canvas without a width and height: the image's own size is used (https://example.org/canvas/3).",
    ]);
  });

  it('reads Presentation 2 with an oa:Choice and several sequences', () => {
    const manifest = parseIiifManifest({
      '@context': 'http://iiif.io/api/presentation/2/context.json',
      '@id': 'https://example.org/v2',
      '@type': 'sc:Manifest',
      label: [
        { '@value': 'Livre', '@language': 'fr' },
        { '@value': 'Book', '@language': 'en' },
      ],
      sequences: [
        {
          canvases: [
            {
              '@id': 'https://example.org/v2/c1',
              label: 'p. 1',
              width: '300',
              height: 400,
              images: [
                {
                  motivation: 'sc:painting',
                  resource: {
                    '@type': 'oa:Choice',
                    default: {
                      '@id': 'https://example.org/v2/img1.jpg',
                      service: {
                        '@context': 'http://iiif.io/api/image/2/context.json',
                        '@id': 'https://example.org/v2/iiif/1',
                      },
                    },
                  },
                },
              ],
            },
          ],
        },
        { canvases: [] },
      ],
    });
    expect(manifest).toEqual({
      version: 2,
      id: 'https://example.org/v2',
      label: 'Book',
      canvases: [
        {
          id: 'https://example.org/v2/c1',
          label: 'p. 1',
          width: 300,
          height: 400,
          imageServiceUrl: 'https://example.org/v2/iiif/1',
          imageUrl: 'https://example.org/v2/img1.jpg',
        },
      ],
      // No ranges, no licence: nothing to keep.
      structures: [],
      rights: { license: [], attribution: [], attributionLabel: [], logo: [] },
      warnings: ['The manifest has 2 sequences; only the first is read.'],
    });
  });

  it('refuses what is not a manifest', () => {
    const refuse = (input: unknown, message: RegExp) => {
      expect(() => parseIiifManifest(input)).toThrow(ImportFormatError);
      expect(() => parseIiifManifest(input)).toThrow(message);
    };
    refuse('{"@context": ', /not valid JSON/);
    refuse('[]', /not an object/);
    refuse(
      { '@context': 'http://iiif.io/api/presentation/3/context.json', type: 'Collection' },
      /collection/,
    );
    refuse(
      { '@context': 'http://iiif.io/api/image/3/context.json', type: 'ImageService3' },
      /Not a IIIF manifest/,
    );
  });
});

describe('labelText', () => {
  it("prefers 'none', then English, then the first value", () => {
    expect(labelText({ fr: ['Contes'], none: ['Canterbury tales'], en: ['Tales'] })).toBe(
      'Canterbury tales',
    );
    expect(labelText({ fr: ['Contes'], 'en-GB': ['Tales'] })).toBe('Tales');
    expect(labelText({ fr: ['Contes', 'de Canterbury'], de: ['Erzählungen'] })).toBe('Contes');
    expect(labelText([{ '@value': 'Livre', '@language': 'fr' }, 'Untagged'])).toBe('Untagged');
    expect(labelText({ '@value': ' Herbal ' })).toBe('Herbal');
    expect(labelText(' - ')).toBe('-');
    expect(labelText(undefined)).toBe('');
    expect(labelText({ en: [] })).toBe('');
  });
});
