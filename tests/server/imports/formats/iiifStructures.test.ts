import { describe, expect, it } from 'vitest';
import { parseRights, parseStructures } from '../../../../server/imports/formats/iiifStructures';
import { rangesOnPages } from '../../../../server/services/elements/importedManifests';

const c = (n: number) => `https://example.org/canvas/${n}`;
const r = (n: number) => `https://example.org/range/${n}`;

describe('ranges of a manifest', () => {
  it('has none when the manifest has no structures', () => {
    expect(parseStructures({})).toEqual([]);
    expect(parseStructures({ structures: [] })).toEqual([]);
  });

  it('nests Presentation 2.0 ranges that name their parent with `within`', () => {
    const structures = [
      { '@id': r(1), '@type': 'sc:Range', label: 'Book', canvases: [c(1)] },
      { '@id': r(2), '@type': 'sc:Range', label: 'Chapter', within: r(1), canvases: [c(2)] },
    ];
    expect(parseStructures({ structures })).toEqual([
      {
        label: 'Book',
        canvases: [c(1)],
        ranges: [{ label: 'Chapter', canvases: [c(2)], ranges: [] }],
      },
    ]);
  });

  it('reads Presentation 2.1 `members` in order', () => {
    const structures = [
      {
        '@id': r(1),
        '@type': 'sc:Range',
        label: 'Book',
        viewingHint: 'top',
        members: [
          { '@id': r(2), '@type': 'sc:Range', label: 'Part' },
          { '@id': c(9), '@type': 'sc:Canvas', label: 'Plate' },
        ],
      },
      { '@id': r(2), '@type': 'sc:Range', label: 'Part', canvases: [c(1), `${c(2)}#xywh=1,2,3,4`] },
    ];
    // The top range stands for the table of contents: its children are the top level.
    expect(parseStructures({ structures })).toEqual([
      { label: 'Part', canvases: [c(1), c(2)], ranges: [] },
    ]);
  });

  it('stops at a range that contains itself', () => {
    const structures = [
      { '@id': r(1), '@type': 'sc:Range', label: 'A', canvases: [c(1)], ranges: [r(2)] },
      { '@id': r(2), '@type': 'sc:Range', label: 'B', canvases: [c(2)], ranges: [r(1)] },
      { '@id': r(3), '@type': 'sc:Range', label: 'C', canvases: [c(3)], ranges: [r(3)] },
    ];
    // A and B name each other, so neither is a root; C names only itself.
    expect(parseStructures({ structures })).toEqual([{ label: 'C', canvases: [c(3)], ranges: [] }]);
  });

  it('reads Presentation 3 embedded ranges, canvas parts and language maps', () => {
    const structures = [
      {
        id: r(1),
        type: 'Range',
        label: { fr: ['Livre'], en: ['Book'] },
        items: [
          { id: c(1), type: 'Canvas' },
          {
            id: r(2),
            type: 'Range',
            label: { none: ['II'] },
            items: [{ type: 'SpecificResource', source: { id: c(2), type: 'Canvas' } }],
          },
        ],
      },
    ];
    expect(parseStructures({ structures })).toEqual([
      { label: 'Book', canvases: [c(1)], ranges: [{ label: 'II', canvases: [c(2)], ranges: [] }] },
    ]);
  });
});

describe('rights of a manifest', () => {
  it('reads Presentation 2 licences, attributions in several languages and logos', () => {
    expect(
      parseRights({
        license: ['https://creativecommons.org/licenses/by/4.0/', 'https://example.org/terms'],
        attribution: [
          { '@value': 'Bibliothèque exemple', '@language': 'fr' },
          { '@value': 'Example library', '@language': 'en' },
        ],
        logo: { '@id': 'https://example.org/logo.png', service: {} },
      }),
    ).toEqual({
      license: ['https://creativecommons.org/licenses/by/4.0/', 'https://example.org/terms'],
      attribution: [
        { value: 'Bibliothèque exemple', language: 'fr' },
        { value: 'Example library', language: 'en' },
      ],
      attributionLabel: [],
      logo: ['https://example.org/logo.png'],
    });
  });

  it('reads Presentation 3 rights, required statement and providers’ logos', () => {
    expect(
      parseRights({
        rights: 'http://creativecommons.org/publicdomain/mark/1.0/',
        requiredStatement: { label: { en: ['Provider'] }, value: { none: ['Yale University'] } },
        provider: [{ type: 'Agent', logo: [{ id: 'https://example.org/yale.png' }] }],
      }),
    ).toEqual({
      license: ['http://creativecommons.org/publicdomain/mark/1.0/'],
      attribution: [{ value: 'Yale University', language: null }],
      attributionLabel: [{ value: 'Provider', language: 'en' }],
      logo: ['https://example.org/yale.png'],
    });
  });

  it('keeps nothing but web links for licences and logos', () => {
    expect(
      parseRights({ license: [42, 'javascript:alert(1)'], attribution: {}, logo: ['logo.png'] }),
    ).toEqual({
      license: [],
      attribution: [],
      attributionLabel: [],
      logo: [],
    });
  });
});

describe('ranges on imported pages', () => {
  it('points ranges at pages, leaves out canvases not imported and ranges left empty', () => {
    const pages = new Map([
      [c(1), 'page-1'],
      [c(2), 'page-2'],
    ]);
    expect(
      rangesOnPages(
        [
          {
            label: 'Book',
            canvases: [c(1), c(1), c(7)],
            ranges: [
              { label: 'Lost', canvases: [c(8)], ranges: [] },
              { label: 'Kept', canvases: [c(2)], ranges: [] },
            ],
          },
          { label: 'Nothing', canvases: [c(9)], ranges: [] },
        ],
        (canvas) => pages.get(canvas),
      ),
    ).toEqual([
      {
        label: 'Book',
        pages: ['page-1'],
        ranges: [{ label: 'Kept', pages: ['page-2'], ranges: [] }],
      },
    ]);
  });
});
