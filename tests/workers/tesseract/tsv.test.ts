/**
 * Reading Tesseract's TSV: lines with their box, text and mean word confidence, grouped by
 * paragraph; and the settings the worker reads from its worker run.
 */
import { describe, expect, it } from 'vitest';
import { paragraphsOf, parseTsv } from '../../../workers/tesseract/tsv';
import { boxPolygon, cropOf } from '../../../workers/tesseract/geometry';
import {
  mergedConfiguration,
  readSettings,
  type WorkerRunJson,
} from '../../../workers/tesseract/configuration';

const row = (...fields: (string | number)[]) => fields.join('\t');

// As Tesseract 5 prints it for a page with a page number and a paragraph of two lines.
const TSV = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  row(1, 1, 0, 0, 0, 0, 0, 0, 1280, 2091, -1, ''),
  row(2, 1, 1, 0, 0, 0, 588, 185, 49, 31, -1, ''),
  row(3, 1, 1, 1, 0, 0, 588, 185, 49, 31, -1, ''),
  row(4, 1, 1, 1, 1, 0, 588, 185, 49, 31, -1, ''),
  row(5, 1, 1, 1, 1, 1, 588, 185, 49, 31, 96.571999, '97'),
  row(2, 1, 2, 0, 0, 0, 331, 296, 430, 290, -1, ''),
  row(3, 1, 2, 1, 0, 0, 332, 296, 243, 35, -1, ''),
  row(4, 1, 2, 1, 1, 0, 332, 296, 243, 35, -1, ''),
  row(5, 1, 2, 1, 1, 1, 332, 297, 95, 29, 96, 'Grüne'),
  row(5, 1, 2, 1, 1, 2, 449, 296, 126, 35, 90, 'Ukraine,'),
  row(4, 1, 2, 1, 2, 0, 332, 347, 333, 37, -1, ''),
  row(5, 1, 2, 1, 2, 1, 332, 347, 47, 29, 80, 'Du'),
  row(5, 1, 2, 1, 2, 2, 400, 347, 48, 35, 60, 'biſt'),
  // A line Tesseract found but read no word on: no line at all.
  row(4, 1, 2, 1, 3, 0, 332, 400, 333, 37, -1, ''),
  row(5, 1, 2, 1, 3, 1, 332, 400, 47, 29, 95, ' '),
  '',
].join('\n');

describe('parseTsv', () => {
  it('gives each line with words its box, text and mean confidence, in order', () => {
    expect(parseTsv(TSV)).toEqual([
      {
        page: 1,
        paragraph: '1.1',
        box: { left: 588, top: 185, width: 49, height: 31 },
        text: '97',
        confidence: 96.571999,
      },
      {
        page: 1,
        paragraph: '2.1',
        box: { left: 332, top: 296, width: 243, height: 35 },
        text: 'Grüne Ukraine,',
        confidence: 93,
      },
      {
        page: 1,
        paragraph: '2.1',
        box: { left: 332, top: 347, width: 333, height: 37 },
        text: 'Du biſt',
        confidence: 70,
      },
    ]);
  });

  it('keeps the lines of each image of a list apart', () => {
    const second = TSV.replace(/^(\d)\t1\t/gm, '$1\t2\t');
    const lines = parseTsv(`${TSV}${second}`);
    expect(lines.map((line) => `${line.page}:${line.text}`)).toEqual([
      '1:97',
      '1:Grüne Ukraine,',
      '1:Du biſt',
      '2:97',
      '2:Grüne Ukraine,',
      '2:Du biſt',
    ]);
  });

  it('reads nothing from an empty or malformed output', () => {
    expect(parseTsv('')).toEqual([]);
    expect(parseTsv('Estimating resolution as 373\nnot\ta\trow')).toEqual([]);
  });

  it('groups lines by paragraph with the union of their boxes', () => {
    const paragraphs = paragraphsOf(parseTsv(TSV));
    expect(paragraphs.map((p) => [p.key, p.box, p.lines.length])).toEqual([
      ['1.1', { left: 588, top: 185, width: 49, height: 31 }, 1],
      ['2.1', { left: 332, top: 296, width: 333, height: 88 }, 2],
    ]);
  });
});

describe('geometry', () => {
  it('reads a zone as its bounding box, or the whole image', () => {
    const image = { width: 1000, height: 800 };
    expect(
      cropOf(
        [
          [10.4, 20],
          [300, 20.5],
          [300.2, 90],
          [10, 90],
        ],
        image,
      ),
    ).toEqual({ left: 10, top: 20, width: 291, height: 70, region: '10,20,291,70' });
    expect(
      cropOf(
        [
          [0, 0],
          [1000, 0],
          [1000, 800],
          [0, 800],
        ],
        image,
      ).region,
    ).toBe('full');
  });

  it('places a box found in a crop on the image, inside the crop, and drops slivers', () => {
    const crop = { left: 100, top: 200, width: 50, height: 40 };
    expect(boxPolygon({ left: 5, top: 6, width: 10, height: 20 }, crop)).toEqual([
      [105, 206],
      [115, 206],
      [115, 226],
      [105, 226],
    ]);
    expect(boxPolygon({ left: 40, top: 30, width: 30, height: 30 }, crop)).toEqual([
      [140, 230],
      [150, 230],
      [150, 240],
      [140, 240],
    ]);
    expect(boxPolygon({ left: 5, top: 6, width: 1, height: 20 }, crop)).toBeNull();
  });
});

describe('settings', () => {
  const run = (layers: {
    version?: Record<string, unknown>;
    model?: Record<string, unknown>;
    configuration?: Record<string, unknown>;
  }): WorkerRunJson => ({
    id: 'run',
    worker_version: {
      configuration: {
        command: ['tsx'],
        user_configuration: {
          languages: { title: 'Languages', type: 'string', default: 'deu' },
          psm: { title: 'PSM', type: 'enum', choices: [1, 3], default: 6 },
        },
        ...layers.version,
      },
    },
    model_version: layers.model
      ? { id: 'm', model: { id: 'x', name: 'M' }, configuration: layers.model }
      : null,
    configuration: layers.configuration ? { configuration: layers.configuration } : null,
    process: { id: 'p', corpus: 'c' },
  });

  it('layers the schema defaults, the model version and the configuration, later winning', () => {
    expect(readSettings(mergedConfiguration(run({})))).toEqual({
      languages: 'deu',
      psm: 6,
      minConfidence: 0,
      createLines: true,
      lineType: 'text_line',
      createRegions: false,
    });
    const merged = mergedConfiguration(
      run({ model: { psm: 4, languages: 'fra' }, configuration: { psm: 11, create_lines: false } }),
    );
    expect(readSettings(merged)).toMatchObject({ languages: 'fra', psm: 11, createLines: false });
  });

  it.each([
    [{ psm: 5 }, 'psm must be one of 1, 3, 4, 6, 11'],
    [{ languages: 'deu; rm -rf' }, 'languages must name Tesseract languages'],
    [{ min_confidence: 101 }, 'min_confidence must be a number from 0 to 100'],
    [{ create_regions: 'yes' }, 'create_regions must be true or false'],
    [{ line_type: ' ' }, 'line_type must be the slug of an element type'],
  ])('refuses %j', (configuration, message) => {
    expect(() => readSettings(mergedConfiguration(run({ configuration })))).toThrow(message);
  });
});
