import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { insertElements, makeImage, typeIds } from '../elementsFixtures';
import { NOT_FOUND, UNKNOWN_ID, validation } from '../expectedErrors';
import { DATASET_ELEMENT_MESSAGES } from '../../../server/services/datasets/elements';
import { csvField } from '../../../server/services/datasets/csv';
import { createElements } from '../../../server/services/elements/create';

const HEADER = 'element_id,name,type,set,image_url';

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += char;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

describeEachDialect('GET /datasets/{id}/csv/', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let datasetId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const TRICKY = 'Say "hi", then\nleave';

  beforeAll(async () => {
    const app = t().app;
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app));
    const image = await makeImage(app, privateId, 1000, 800);
    ids = await insertElements(app, privateId, [
      { name: 'Page', type: 'page', image: image.id },
      {
        name: 'Line',
        type: 'text_line',
        parent: 'Page',
        image: image.id,
        polygon: [
          [10, 20],
          [110, 20],
          [110, 70],
          [10, 70],
          [10, 20],
        ],
      },
      { name: TRICKY, type: 'page' },
    ]);
    const created = await as('owner').post(`corpus/${privateId}/datasets/`, {
      name: 'Train/Test "v1" é',
      description: 'x',
      unique_elements: false,
    });
    datasetId = created.json().id;
    for (const [element, set] of [
      ['Page', 'train'],
      ['Line', 'dev'],
      [TRICKY, 'test'],
      ['Page', 'test'],
    ]) {
      const added = await as('owner').post(`datasets/${datasetId}/elements/`, {
        element_id: ids[element!],
        set,
      });
      expect(added.statusCode).toBe(201);
    }
  });

  it('downloads every element with its set and zone image, quoted as RFC 4180 says', async () => {
    const response = await as('guest').get(`datasets/${datasetId}/csv/`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Train_Test _v1_ _.csv"; filename*=UTF-8''Train%2FTest%20%22v1%22%20%C3%A9.csv`,
    );
    expect(response.payload.startsWith(`${HEADER}\r\n`)).toBe(true);
    expect(response.payload).toContain(`,"Say ""hi"", then\nleave",page,test,\r\n`);
    const zone = async (name: string) =>
      (await as('guest').get(`element/${ids[name]}/`)).json().zone.url as string;
    const pageUrl = await zone('Page');
    const lineUrl = await zone('Line');
    expect(lineUrl).toMatch(/\/10,20,100,50\/full\/0\/default\.jpg$/);
    expect(parseCsv(response.payload)).toEqual([
      HEADER.split(','),
      [ids.Line, 'Line', 'text_line', 'dev', lineUrl],
      [ids.Page, 'Page', 'page', 'test', pageUrl],
      [ids[TRICKY], TRICKY, 'page', 'test', ''],
      [ids.Page, 'Page', 'page', 'train', pageUrl],
    ]);
  });

  it('downloads one set when asked, named after it', async () => {
    const response = await as('guest').get(`datasets/${datasetId}/csv/?set=test`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(
      `filename="Train_Test _v1_ _ test.csv"`,
    );
    expect(parseCsv(response.payload).map((row) => row[1])).toEqual(['name', 'Page', TRICKY]);
  });

  it('refuses a set the dataset does not have', async () => {
    const response = await as('guest').get(`datasets/${datasetId}/csv/?set=nope`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(validation('set', DATASET_ELEMENT_MESSAGES.noSet('nope')));
  });

  it('reads a large dataset page after page, each line once, in order', async () => {
    const app = t().app;
    const types = await typeIds(app, privateId);
    await app.db.transaction().execute((trx) =>
      createElements(
        trx,
        Array.from({ length: 2300 }, (_, i) => ({
          corpusId: privateId,
          typeId: types.text_line!,
          // Names shared by pairs: the order then falls back to the id.
          name: `line ${Math.floor(i / 2)}`,
          parentId: null,
        })),
      ),
    );
    const made = await as('owner').post(`corpus/${privateId}/datasets/`, {
      name: 'Large',
      description: 'x',
    });
    const populate = await as('owner').post(`datasets/${made.json().id}/populate/`, {
      types: ['text_line'],
      count: 5000,
      sets: { train: 0.5, dev: 0.5 },
      seed: 3,
    });
    expect(populate.statusCode).toBe(202);
    await app.jobs.drain();
    const response = await as('guest').get(`datasets/${made.json().id}/csv/`);
    const rows = parseCsv(response.payload).slice(1);
    expect(rows).toHaveLength(2301);
    expect(new Set(rows.map((row) => row[0])).size).toBe(2301);
    const key = (row: string[]) => [row[3]!, row[1]!, row[0]!];
    const sorted = [...rows].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return 0;
    });
    expect(rows).toEqual(sorted);
    expect(rows.filter((row) => row[3] === 'dev')).toHaveLength(1150);
  });

  describe('rights', () => {
    it('lets anyone who reads the project download, and hides a private one', async () => {
      const open = await as('owner').post(`corpus/${publicId}/datasets/`, {
        name: 'Open',
        description: 'x',
      });
      const anonymous = await as('anonymous').get(`datasets/${open.json().id}/csv/`);
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.payload).toBe(`${HEADER}\r\n`);
      for (const role of ['outsider', 'anonymous'] as const) {
        const hidden = await as(role).get(`datasets/${datasetId}/csv/`);
        expect(hidden.statusCode).toBe(404);
        expect(hidden.json()).toEqual(NOT_FOUND);
      }
      for (const id of [UNKNOWN_ID, 'nope']) {
        expect((await as('owner').get(`datasets/${id}/csv/`)).statusCode).toBe(404);
      }
    });
  });

  it('quotes only the fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('a "b"')).toBe('"a ""b"""');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
  });
});
