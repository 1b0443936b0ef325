/**
 * The parsers against the real PAGE and ALTO files of ../shared/data (read in place, never copied
 * into the repository), checked against the counts its README and expected_counts.json give.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAlto } from '../../../../server/imports/formats/alto';
import { detectFormat } from '../../../../server/imports/formats/detect';
import { parsePageXml } from '../../../../server/imports/formats/pagexml';
import type { ParsedPage, Point } from '../../../../server/imports/formats/types';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../../sharedData';

const dataDir = SHARED_DATA_DIR;
const hasData = sharedDataAvailable();
if (!hasData) console.warn(`Shared test corpus not found at ${dataDir}: corpus tests skipped.`);

interface ExpectedPage {
  xml: string;
  format: string;
  image_width: number;
  image_height: number;
  xml_width: number;
  xml_height: number;
  imageFilename_in_xml: string;
  text_regions: number;
  text_lines: number;
  lines_with_text: number;
  lines_with_baseline: number;
  text_regions_without_lines: number;
  non_text_regions: Record<string, number>;
  text_region_types: Record<string, number>;
  reading_order: string[] | null;
  border: boolean | null;
  coords_bbox_minx_miny_maxx_maxy: [number, number, number, number];
}

const expectedPages: ExpectedPage[] = hasData
  ? (
      JSON.parse(readFileSync(path.join(dataDir, 'expected_counts.json'), 'utf8')) as {
        pages: ExpectedPage[];
      }
    ).pages
  : [];

/** The README's labels and the slugs they must become; an unknown label fails the test. */
const SLUGS: Record<string, string> = {
  MainZone: 'main_zone',
  DropCapitalZone: 'drop_capital_zone',
  NumberingZone: 'numbering_zone',
  TitlePageZone: 'title_page_zone',
  GraphicZone: 'graphic_zone',
  'page-number': 'page_number',
  'signature-mark': 'signature_mark',
  paragraph: 'paragraph',
  footnote: 'footnote',
  header: 'header',
  heading: 'heading',
};

const read = (relative: string) => readFileSync(path.join(dataDir, relative), 'utf8');

function parse(relative: string): ParsedPage {
  const text = read(relative);
  const format = detectFormat(text, path.basename(relative));
  if (format === 'page') return parsePageXml(text);
  if (format === 'alto') return parseAlto(text);
  throw new Error(`${relative} detected as ${String(format)}`);
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** Region ids in file order, read straight from the XML text, independently of the parsers. */
function documentOrder(relative: string, alto: boolean): string[] {
  const pattern = alto
    ? /<(?:TextBlock|Illustration|GraphicalElement)\b[^>]*?\bID="([^"]+)"/g
    : /<\w+Region\b[^>]*?\bid="([^"]+)"/g;
  return [...read(relative).matchAll(pattern)].map((match) => match[1]!);
}

function lineIdsInFile(relative: string, alto: boolean): string[] {
  const pattern = alto ? /<TextLine\b[^>]*?\bID="([^"]+)"/g : /<TextLine\b[^>]*?\bid="([^"]+)"/g;
  return [...read(relative).matchAll(pattern)].map((match) => match[1]!);
}

const corpus = hasData ? describe : describe.skip;
const title = hasData ? 'shared corpus' : `shared corpus (SKIPPED: ${dataDir} is missing)`;

corpus(title, () => {
  it('has the twelve XML files the README lists', () => {
    expect(expectedPages).toHaveLength(12);
  });

  describe.each(expectedPages.map((page) => [page.xml, page] as const))(
    '%s',
    (relative, expected) => {
      const page = parse(relative);
      const alto = expected.format === 'ALTO v4';
      const fileOrder = documentOrder(relative, alto);
      const textRegions = page.regions.filter((region) => region.kind === 'text');
      const lines = textRegions.flatMap((region) => region.lines);

      it('is detected and read in its own format, with the declared image size and file name', () => {
        expect(page.format).toBe(alto ? 'alto-4' : 'page-2019');
        expect([page.width, page.height]).toEqual([expected.image_width, expected.image_height]);
        expect([page.width, page.height]).toEqual([expected.xml_width, expected.xml_height]);
        expect(page.imageFilename).toBe(expected.imageFilename_in_xml);
      });

      it('has the expected text regions, lines, texts and baselines', () => {
        expect(textRegions).toHaveLength(expected.text_regions);
        expect(lines).toHaveLength(expected.text_lines);
        expect(lines.filter((line) => line.text !== '')).toHaveLength(expected.lines_with_text);
        expect(lines.filter((line) => line.baseline !== null)).toHaveLength(
          expected.lines_with_baseline,
        );
        expect(textRegions.filter((region) => region.lines.length === 0)).toHaveLength(
          expected.text_regions_without_lines,
        );
      });

      it('has the expected non-text regions, none of them with lines', () => {
        const others = page.regions.filter((region) => region.kind === 'other');
        expect(countBy(others, (region) => region.element)).toEqual(expected.non_text_regions);
        expect(others.every((region) => region.lines.length === 0)).toBe(true);
      });

      it('types text regions with the slugs of the README labels', () => {
        const expectedSlugs: Record<string, number> = {};
        for (const [label, count] of Object.entries(expected.text_region_types)) {
          const slug = SLUGS[label];
          expect(slug, `no slug listed for ${label}`).toBeDefined();
          expectedSlugs[slug!] = count;
        }
        expect(countBy(textRegions, (region) => region.type)).toEqual(expectedSlugs);
        expect(countBy(textRegions, (region) => region.typeLabel)).toEqual(
          expected.text_region_types,
        );
      });

      it('orders regions by the ReadingOrder, then the rest in file order', () => {
        expect(fileOrder).toHaveLength(page.regions.length);
        const first = expected.reading_order ?? [];
        const expectedOrder = [...first, ...fileOrder.filter((id) => !first.includes(id))];
        expect(page.regions.map((region) => region.id)).toEqual(expectedOrder);
      });

      if (relative.startsWith('ocrd-gt')) {
        it("reads lines in the order of the region's own text, not the file's", () => {
          // The parser reports each line whose place differs from the region-level text.
          expect(page.warnings.filter((warning) => warning.includes("region's text"))).toEqual([]);
        });
      } else {
        it("keeps eScriptorium's line order, set by its transcribers", () => {
          const byId = new Map(page.regions.map((region) => [region.id, region]));
          const inFileRegionOrder = fileOrder.flatMap((id) => byId.get(id)!.lines);
          expect(inFileRegionOrder.map((line) => line.id)).toEqual(lineIdsInFile(relative, alto));
        });
      }

      it('gives closed integer rings inside the image, covering the file’s coordinates', () => {
        const rings = [...page.regions.map((r) => r.polygon), ...lines.map((l) => l.polygon)];
        for (const ring of rings) {
          expect(ring.length).toBeGreaterThanOrEqual(4);
          expect(ring[0]).toEqual(ring[ring.length - 1]);
        }
        const points: Point[] = [...rings.flat(), ...lines.flatMap((line) => line.baseline ?? [])];
        expect(points.every(([x, y]) => Number.isInteger(x) && Number.isInteger(y))).toBe(true);
        const box = [
          Math.min(...points.map((p) => p[0])),
          Math.min(...points.map((p) => p[1])),
          Math.max(...points.map((p) => p[0])),
          Math.max(...points.map((p) => p[1])),
        ];
        const [minX, minY, maxX, maxY] = expected.coords_bbox_minx_miny_maxx_maxy;
        if (expected.border) {
          // The expected box includes the page Border, which is not a region.
          expect(box[0]).toBeGreaterThanOrEqual(minX);
          expect(box[1]).toBeGreaterThanOrEqual(minY);
          expect(box[2]).toBeLessThanOrEqual(maxX);
          expect(box[3]).toBeLessThanOrEqual(maxY);
        } else {
          expect(box).toEqual([minX, minY, maxX, maxY]);
        }
        expect(maxX).toBeLessThanOrEqual(page.width);
        expect(maxY).toBeLessThanOrEqual(page.height);
      });
    },
  );

  it('puts laube_0105 in reading order, not file order', () => {
    const page = parse(
      'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0105.xml',
    );
    expect(page.regions.map((region) => region.id)).toEqual([
      'r0',
      'region_1',
      'r3',
      'r5',
      'region_2',
      'r1',
    ]);
    expect(page.regions.at(-1)).toMatchObject({ kind: 'other', type: 'separator_region' });
  });

  it('types a typed GraphicRegion by its @type and keeps its element name', () => {
    const page = parse(
      'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0007.xml',
    );
    expect(page.regions.find((region) => region.id === 'r4')).toMatchObject({
      kind: 'other',
      element: 'GraphicRegion',
      type: 'handwritten_annotation',
      typeLabel: 'handwritten-annotation',
    });
  });

  it('puts the Aletheia lines that sit out of place in the file where they are on the page', () => {
    const base = 'ocrd-gt_structure_text/';
    const places = (relative: string, region: string, line: string) =>
      parse(`${base}${relative}`)
        .regions.find((r) => r.id === region)!
        .lines.findIndex((l) => l.id === line) + 1;
    // The README: 7th in the file, 17th on the page (and the region's own text says so).
    expect(places('bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146.xml', 'r3', 'l22')).toBe(17);
    expect(places('bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146.xml', 'r4', 'l36')).toBe(19);
    expect(places('bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146.xml', 'r6', 'l64')).toBe(11);
    expect(places('laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0105.xml', 'r3', 'l4')).toBe(
      11,
    );
    for (const xml of expectedPages.map((page) => page.xml))
      expect(parse(xml).warnings, xml).toEqual([]);
  });

  it('trims line text only at its edges and keeps the region-level text out of the lines', () => {
    const page = parse(
      'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0105.xml',
    );
    const region = page.regions.find((r) => r.id === 'region_1')!;
    expect(region.lines.map((line) => line.text).slice(0, 2)).toEqual([
      'Grüne Ukraine,',
      'Du biſt jetzt verlaſſen',
    ]);
  });

  describe.each(['0001', '0005', '0052'])('lectaurep %s', (name) => {
    it('reads the same regions, lines, texts and polygons from PAGE and from ALTO', () => {
      const fromPage = parse(`lectaurep-bronod/bronod1/page/${name}.xml`);
      const fromAlto = parse(`lectaurep-bronod/bronod1/alto/${name}.xml`);
      expect(fromPage.format).toBe('page-2019');
      expect(fromAlto.format).toBe('alto-4');
      const comparable = (page: ParsedPage) => ({
        imageFilename: page.imageFilename,
        width: page.width,
        height: page.height,
        regions: page.regions.map(({ element: _element, ...region }) => region),
      });
      expect(comparable(fromAlto)).toEqual(comparable(fromPage));
      expect(fromPage.regions.map((region) => region.element)).toEqual(
        fromPage.regions.map(() => 'TextRegion'),
      );
      expect(fromAlto.regions.map((region) => region.element)).toEqual(
        fromAlto.regions.map(() => 'TextBlock'),
      );
    });
  });

  it('decodes character references (&#x27;) the same way in both lectaurep exports', () => {
    for (const relative of [
      'lectaurep-bronod/bronod1/page/0052.xml',
      'lectaurep-bronod/bronod1/alto/0052.xml',
    ]) {
      expect(read(relative)).toContain('&#x27;');
      const texts = parse(relative).regions.flatMap((r) => r.lines.map((l) => l.text));
      expect(texts.some((text) => text.includes("'"))).toBe(true);
      expect(texts.some((text) => text.includes('&#'))).toBe(false);
    }
  });

  it('keeps bronod 0052 lines in transcriber order, which is not top to bottom', () => {
    for (const format of ['page', 'alto']) {
      const page = parse(`lectaurep-bronod/bronod1/${format}/0052.xml`);
      let rising = 0;
      for (const region of page.regions) {
        region.lines.forEach((line, i) => {
          const before = region.lines[i - 1];
          if (before && line.baseline![0]![1] < before.baseline![0]![1]) rising += 1;
        });
      }
      // The README counts 7 places where the next line's baseline is higher than the previous.
      expect(rising).toBe(7);
    }
  });

  it('gives the empty line of bronod 0052 the text ""', () => {
    for (const format of ['page', 'alto']) {
      const page = parse(`lectaurep-bronod/bronod1/${format}/0052.xml`);
      const line = page.regions.flatMap((r) => r.lines).find((l) => l.id === 'eSc_line_cf4f8484');
      expect(line).toBeDefined();
      expect(line!.text).toBe('');
      expect(line!.baseline).not.toBeNull();
    }
  });

  it('keeps the combining characters of cremma 0_36c2c exactly as written', () => {
    const relative =
      'cremma-medieval/pennsylvania_660-pelerinageMademoiselleSapience/0_36c2c_default.xml';
    const contents = [...read(relative).matchAll(/<String CONTENT="([^"]*)"/g)].map((m) => m[1]!);
    const texts = parse(relative).regions.flatMap((r) => r.lines.map((l) => l.text));
    expect(texts).toEqual(contents);
    for (const mark of ['\u0303', '\u035B', '\u0365']) {
      expect(
        texts.some((text) => text.includes(mark)),
        `U+${mark.codePointAt(0)!.toString(16)}`,
      ).toBe(true);
    }
  });
});
