/**
 * CreateElementTranscriptions, POST /element/{id}/transcriptions/bulk/: an HTR worker's lines
 * on a page, each a new child element with its polygon on the page's image and a transcription
 * of it, all or nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '../../server/db/schema';
import type { Point } from '../../server/geometry/polygon';
import { describeEachDialect } from './harness';
import { clientFor, makeActorsAndProjects, makeCorpus, type Actors, type Role } from './actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { insertElements, linkCount, makeImage, names } from './elementsFixtures';
import { makeWorkerRun } from './workerRunFixtures';

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const SUMMARY = 'Worker Fake worker @ 123412';
const NO_ZONE =
  'The parent element has no zone: the elements created under it need its image for their polygons.';

/** A line's box on the page, `n` lines down. */
const box = (n: number): Point[] => [
  [10, 10 + 30 * n],
  [310, 10 + 30 * n],
  [310, 35 + 30 * n],
  [10, 35 + 30 * n],
];
const closed = (points: Point[]) => [...points, points[0]];

const line = (n: number, extra: Record<string, unknown> = {}) => ({
  polygon: box(n),
  text: `Line ${n}`,
  confidence: 0.9,
  ...extra,
});

describeEachDialect('element transcriptions in bulk', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let otherId: string;
  let image: Image;
  /** Elements by name: "Page", "Folder" (no image), "Public page", "Hidden page". */
  let ids: Record<string, string>;
  let runId: string;
  let publicRunId: string;
  let otherRunId: string;
  let hiddenRunId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const post = (parent: string, body: unknown, role: Role = 'contributor') =>
    as(role).post(`element/${parent}/transcriptions/bulk/`, body);
  const body = (items: unknown, extra: Record<string, unknown> = {}) => ({
    element_type: 'text_line',
    worker_run_id: runId,
    transcriptions: items,
    ...extra,
  });

  /** Rows of the tables a call writes, to prove a refused one wrote nothing. */
  async function stored() {
    const { db } = t().app;
    const count = async (table: 'elements' | 'transcriptions') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      elements: await count('elements'),
      transcriptions: await count('transcriptions'),
      links: await linkCount(t().app),
    };
  }

  async function refused(
    send: () => ReturnType<typeof post>,
    status: number,
    expected: unknown,
  ): Promise<void> {
    const before = await stored();
    const response = await send();
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual(expected);
    expect(await stored()).toEqual(before);
  }

  beforeAll(async () => {
    const { app } = t();
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app, {
      private: 'Registers',
      public: 'Open registers',
    }));
    otherId = await makeCorpus(app, actors, { name: 'Other registers' });
    const hidden = await as('outsider').post('corpus/', { name: 'Hidden registers' });
    expect(hidden.statusCode).toBe(201);
    const hiddenId: string = hidden.json().id;
    image = await makeImage(app, privateId, 1000, 800);
    const publicImage = await makeImage(app, publicId);
    const hiddenImage = await makeImage(app, hiddenId);
    ids = {
      ...(await insertElements(app, privateId, [
        { name: 'Folder', type: 'folder' },
        { name: 'Page', type: 'page', parent: 'Folder', image: image.id },
        { name: 'Title', type: 'paragraph', parent: 'Page', image: image.id, polygon: box(20) },
      ])),
      ...(await insertElements(app, publicId, [
        { name: 'Public page', type: 'page', image: publicImage.id },
      ])),
      ...(await insertElements(app, hiddenId, [
        { name: 'Hidden page', type: 'page', image: hiddenImage.id },
      ])),
    };
    runId = (await makeWorkerRun(app, privateId)).id;
    publicRunId = (await makeWorkerRun(app, publicId)).id;
    otherRunId = (await makeWorkerRun(app, otherId)).id;
    hiddenRunId = (await makeWorkerRun(app, hiddenId)).id;
    // A type only another project has: unknown to the private one.
    const margin = await as('owner').post('elements/type/', {
      corpus: otherId,
      slug: 'margin',
      display_name: 'Margin',
    });
    expect(margin.statusCode).toBe(201);
  });

  it('creates the lines under the page with their transcriptions, listed after', async () => {
    const response = await post(
      ids.Page!,
      body(
        [
          line(0, { text: '  Dear Sir, ', element_confidence: 0.8 }),
          line(1, {
            polygon: [
              [10.4, 40],
              [310, 40],
              [310, 40],
              [310, 64.6],
              [10, 65],
              [10.4, 40],
            ],
            text: 'سلام',
            confidence: 1,
            orientation: 'horizontal-rl',
          }),
          line(2, { confidence: 0 }),
        ],
        { worker_run_id: runId.toUpperCase(), return_elements: true },
      ),
    );
    expect(response.statusCode, response.body).toBe(201);
    const created: { id: string; element_id: string; created: boolean }[] = response.json();
    expect(created).toEqual(
      Array.from({ length: 3 }, () => ({
        id: expect.stringMatching(UUID),
        element_id: expect.stringMatching(UUID),
        created: true,
      })),
    );
    expect(new Set(created.map((item) => item.element_id)).size).toBe(3);

    // After the page's existing child, in the request's order, named by their place in it.
    const children = await as('guest').get(`elements/${ids.Page}/children/`);
    expect(children.statusCode).toBe(200);
    expect(names(children.json())).toEqual(['Title', '1', '2', '3']);
    const lines = children.json().results.slice(1);
    expect(lines.map((element: { id: string }) => element.id)).toEqual(
      created.map((item) => item.element_id),
    );
    expect(lines[0]).toMatchObject({
      type: 'text_line',
      confidence: 0.8,
      creator: actors.contributor.email,
      worker_run: { id: runId, summary: SUMMARY },
      zone: { polygon: closed(box(0)), image: { id: image.id, width: 1000, height: 800 } },
    });
    expect(lines[1]).toMatchObject({
      confidence: null,
      zone: {
        polygon: [
          [10, 40],
          [310, 40],
          [310, 65],
          [10, 65],
          [10, 40],
        ],
      },
    });
    expect(lines[2].zone.polygon).toEqual(closed(box(2)));

    const listed = await as('guest').get(
      `element/${ids.Page}/transcriptions/?recursive=true&worker_run=${runId}`,
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json().count).toBe(3);
    const byId = new Map(
      listed.json().results.map((item: { id: string }) => [item.id, item] as const),
    );
    const expected = [
      { text: 'Dear Sir,', confidence: 0.9, orientation: 'horizontal-lr', name: '1' },
      { text: 'سلام', confidence: 1, orientation: 'horizontal-rl', name: '2' },
      { text: 'Line 2', confidence: 0, orientation: 'horizontal-lr', name: '3' },
    ];
    created.forEach((item, index) => {
      const { name, ...fields } = expected[index]!;
      expect(byId.get(item.id)).toEqual({
        id: item.id,
        ...fields,
        worker_run: { id: runId, summary: SUMMARY },
        element: { id: item.element_id, name, type: 'text_line' },
        entity_count: 0,
      });
    });

    // Each line holds its own transcription.
    const own = await as('guest').get(`element/${created[1]!.element_id}/transcriptions/`);
    expect(own.json().results.map((item: { id: string }) => item.id)).toEqual([created[1]!.id]);
  });

  it('numbers the elements of a later call after those of their type already there', async () => {
    const { app } = t();
    const [pageId] = Object.values(
      await insertElements(app, privateId, [
        { name: 'Second page', type: 'page', image: image.id },
      ]),
    );
    for (const count of [2, 1]) {
      const response = await post(pageId!, body(Array.from({ length: count }, (_, n) => line(n))));
      expect(response.statusCode).toBe(201);
    }
    const children = await as('guest').get(`elements/${pageId}/children/`);
    expect(names(children.json())).toEqual(['1', '2', '3']);
  });

  it('creates 1000 lines in one call', async () => {
    const { app } = t();
    const [pageId] = Object.values(
      await insertElements(app, privateId, [{ name: 'Long page', type: 'page', image: image.id }]),
    );
    const items = Array.from({ length: 1000 }, (_, n) => line(n % 25));
    const response = await post(pageId!, body(items));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toHaveLength(1000);
    const last = await as('guest').get(`elements/${pageId}/children/?page_size=1&page=1000`);
    expect(last.json().count).toBe(1000);
    expect(names(last.json())).toEqual(['1000']);
    const listed = await as('guest').get(`element/${pageId}/transcriptions/?recursive=true`);
    expect(listed.json().count).toBe(1000);
  });

  describe('rights', () => {
    it.each(['owner', 'siteAdmin'] as const)('lets %s create them', async (role) => {
      const response = await post(ids.Page!, body([line(3)]), role);
      expect(response.statusCode).toBe(201);
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['anonymous', 'public', 401, NOT_AUTHENTICATED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'private', 404, NOT_FOUND],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
      const [parent, workerRun] =
        which === 'private' ? [ids.Page!, runId] : [ids['Public page']!, publicRunId];
      await refused(
        () => post(parent, body([line(0)], { worker_run_id: workerRun }), role),
        status,
        expected,
      );
    });

    it('answers 404 for a parent the caller cannot read, an unknown one, or no UUID', async () => {
      for (const parent of [ids['Hidden page']!, UNKNOWN_ID, 'page-1']) {
        await refused(() => post(parent, body([line(0)])), 404, NOT_FOUND);
      }
    });
  });

  describe('refusals', () => {
    it('refuses a parent without a zone', async () => {
      await refused(
        () => post(ids.Folder!, body([line(0)])),
        400,
        validation('non_field_errors', NO_ZONE, 'no_zone'),
      );
    });

    it.each([
      ['unknown', 'volume'],
      ["another project's", 'margin'],
    ])('refuses an %s element type on element_type', async (_label, slug) => {
      await refused(
        () => post(ids.Page!, body([line(0)], { element_type: slug })),
        400,
        validation('element_type', `Type '${slug}' not found.`, 'does_not_exist'),
      );
    });

    it.each([
      ["another project's", () => otherRunId],
      ['a hidden project’s', () => hiddenRunId],
      ['an unknown', () => UNKNOWN_ID],
    ])('refuses %s worker run as an invalid pk', async (_label, workerRun) => {
      await refused(
        () => post(ids.Page!, body([line(0)], { worker_run_id: workerRun() })),
        400,
        invalidPk('worker_run_id', workerRun()),
      );
    });

    const polygonCases: [string, unknown, string][] = [
      [
        'negative',
        [
          [-5, 0],
          [10, 0],
          [10, 10],
        ],
        'A polygon cannot have negative coordinates.',
      ],
      [
        'two-point',
        [
          [0, 0],
          [10, 10],
          [0, 0],
        ],
        'This polygon does not have at least three unique points.',
      ],
      [
        '164-point',
        Array.from({ length: 164 }, (_, i) => [
          Math.round(500 + 300 * Math.cos((2 * Math.PI * i) / 164)),
          Math.round(400 + 300 * Math.sin((2 * Math.PI * i) / 164)),
        ]),
        'This polygon has more than 163 distinct points.',
      ],
      [
        'flat',
        [
          [0, 0],
          [50, 1],
          [100, 0],
        ],
        'This polygon is too small.',
      ],
      [
        'outside',
        [
          [900, 700],
          [1001, 700],
          [1001, 800],
        ],
        'A polygon must be inside its image.',
      ],
      [
        'malformed',
        [
          [0, 0],
          ['a', 1],
          [5, 5],
        ],
        'A polygon must be a list of [x, y] points, each coordinate a number.',
      ],
    ];

    it.each(polygonCases)(
      'refuses a %s polygon at its place in the list',
      async (_label, polygon, detail) => {
        await refused(
          () => post(ids.Page!, body([line(0), line(1, { polygon })])),
          400,
          validation('transcriptions.1.polygon', detail),
        );
      },
    );

    it('names every error of the request in one answer', async () => {
      await refused(
        () =>
          post(
            ids.Page!,
            body(
              [
                line(0, {
                  polygon: [
                    [0, 0],
                    [10, 10],
                    [0, 0],
                  ],
                }),
                line(1),
                line(2, { polygon: box(30) }),
              ],
              { element_type: 'volume', worker_run_id: otherRunId },
            ),
          ),
        400,
        {
          type: 'validation_error',
          errors: [
            ...validation('element_type', "Type 'volume' not found.", 'does_not_exist').errors,
            ...invalidPk('worker_run_id', otherRunId).errors,
            ...validation(
              'transcriptions.0.polygon',
              'This polygon does not have at least three unique points.',
            ).errors,
            ...validation('transcriptions.2.polygon', 'A polygon must be inside its image.').errors,
          ],
        },
      );
    });

    it.each([
      [
        'an empty list',
        { transcriptions: [] },
        validation('transcriptions', 'This list may not be empty.'),
      ],
      [
        'a list of 1001',
        { transcriptions: Array.from({ length: 1001 }, () => line(0)) },
        validation('transcriptions', 'Ensure this field has no more than 1000 elements.'),
      ],
      [
        'no element type',
        { element_type: undefined },
        validation('element_type', 'This field is required.', 'required'),
      ],
      [
        'a blank element type',
        { element_type: ' ' },
        validation('element_type', 'This field may not be blank.', 'blank'),
      ],
      [
        'no worker run',
        { worker_run_id: undefined },
        validation('worker_run_id', 'This field is required.', 'required'),
      ],
      [
        'a worker run that is no UUID',
        { worker_run_id: 'run' },
        validation('worker_run_id', 'Must be a valid UUID.'),
      ],
      [
        'no polygon',
        { transcriptions: [line(0, { polygon: undefined })] },
        validation('transcriptions.0.polygon', 'This field is required.', 'required'),
      ],
      [
        'a polygon as text',
        { transcriptions: [line(0), line(1, { polygon: '0,0 10,0 10,10' })] },
        validation('transcriptions.1.polygon', 'Expected a list of items but got type "str".'),
      ],
      [
        'no confidence',
        { transcriptions: [line(0, { confidence: undefined })] },
        validation('transcriptions.0.confidence', 'This field is required.', 'required'),
      ],
      [
        'a confidence above 1',
        { transcriptions: [line(0, { confidence: 1.5 })] },
        validation(
          'transcriptions.0.confidence',
          'Ensure this value is less than or equal to 1.',
          'max_value',
        ),
      ],
      [
        'a negative element confidence',
        { transcriptions: [line(0, { element_confidence: -0.1 })] },
        validation(
          'transcriptions.0.element_confidence',
          'Ensure this value is greater than or equal to 0.',
          'min_value',
        ),
      ],
      [
        'a blank text',
        { transcriptions: [line(0), line(1, { text: '  ' })] },
        validation('transcriptions.1.text', 'This field may not be blank.', 'blank'),
      ],
      [
        'a text with a null character',
        { transcriptions: [line(0, { text: 'a\u0000b' })] },
        validation('transcriptions.0.text', 'Null characters are not allowed.'),
      ],
      [
        'an unknown orientation',
        { transcriptions: [line(0, { orientation: 'diagonal' })] },
        validation(
          'transcriptions.0.orientation',
          '"diagonal" is not a valid choice.',
          'invalid_choice',
        ),
      ],
      [
        'a single transcription instead of a list',
        { transcriptions: line(0) },
        validation('transcriptions', 'Expected a list of items but got type "dict".'),
      ],
      [
        'a return_elements that is no boolean',
        { return_elements: 'yes' },
        validation('return_elements', 'Must be a valid boolean.'),
      ],
    ])('answers 400 to %s', async (_label, change, expected) => {
      await refused(() => post(ids.Page!, body([line(0)], change)), 400, expected);
    });

    it('answers malformed JSON and a list body with a 400', async () => {
      const before = await stored();
      const malformed = await post(ids.Page!, '{"element_type": ');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({
        type: 'client_error',
        errors: [{ code: 'parse_error', attr: null }],
      });
      expect(await stored()).toEqual(before);
      await refused(
        () => post(ids.Page!, [line(0)]),
        400,
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      );
    });

    it("leaves the page's children as they were after a refusal", async () => {
      const before = (await as('guest').get(`elements/${ids.Page}/children/`)).json();
      const response = await post(ids.Page!, body([line(0), line(1, { polygon: box(40) })]));
      expect(response.statusCode).toBe(400);
      expect((await as('guest').get(`elements/${ids.Page}/children/`)).json()).toEqual(before);
    });
  });
});
