/**
 * CreateElementChildren in bulk, POST /element/{id}/children/bulk/: a worker's regions under
 * one element, each named and typed by the worker, with a polygon on the parent's image or
 * none, all or nothing.
 */
import { beforeAll, expect, it } from 'vitest';
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

const box = (n: number): Point[] => [
  [10, 10 + 100 * n],
  [610, 10 + 100 * n],
  [610, 90 + 100 * n],
  [10, 90 + 100 * n],
];
const closed = (points: Point[]) => [...points, points[0]];
const block = (n: number, extra: Record<string, unknown> = {}) => ({
  name: `Block ${n}`,
  type: 'paragraph',
  polygon: box(n),
  confidence: 0.75,
  ...extra,
});

describeEachDialect('element children in bulk', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let image: Image;
  let ids: Record<string, string>;
  let runId: string;
  let publicRunId: string;
  let otherRunId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const post = (parent: string, body: unknown, role: Role = 'contributor') =>
    as(role).post(`element/${parent}/children/bulk/`, body);
  const body = (items: unknown, extra: Record<string, unknown> = {}) => ({
    worker_run_id: runId,
    elements: items,
    ...extra,
  });

  async function refused(send: () => ReturnType<typeof post>, status: number, expected: unknown) {
    const { app } = t();
    const count = async () =>
      Number(
        (
          await app.db
            .selectFrom('elements')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = [await count(), await linkCount(app)];
    const response = await send();
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual(expected);
    expect([await count(), await linkCount(app)]).toEqual(before);
  }

  beforeAll(async () => {
    const { app } = t();
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app, {
      private: 'Chronicles',
      public: 'Open chronicles',
    }));
    const otherId = await makeCorpus(app, actors, { name: 'Other chronicles' });
    image = await makeImage(app, privateId, 1000, 800);
    const publicImage = await makeImage(app, publicId);
    ids = {
      ...(await insertElements(app, privateId, [
        { name: 'Folder', type: 'folder' },
        { name: 'Page', type: 'page', parent: 'Folder', image: image.id },
      ])),
      ...(await insertElements(app, publicId, [
        { name: 'Public page', type: 'page', image: publicImage.id },
      ])),
    };
    runId = (await makeWorkerRun(app, privateId)).id;
    publicRunId = (await makeWorkerRun(app, publicId)).id;
    otherRunId = (await makeWorkerRun(app, otherId)).id;
  });

  it('creates the children in order, with their names, types, polygons and worker run', async () => {
    const response = await post(
      ids.Page!,
      body([
        block(0),
        block(1, { name: 'Margin note', type: 'text_line', confidence: null }),
        { name: 'Somewhere', type: 'paragraph' },
      ]),
    );
    expect(response.statusCode, response.body).toBe(201);
    const created: { id: string }[] = response.json();
    expect(created).toEqual([0, 1, 2].map(() => ({ id: expect.stringMatching(UUID) })));

    const children = await as('guest').get(`elements/${ids.Page}/children/`);
    expect(children.statusCode).toBe(200);
    expect(names(children.json())).toEqual(['Block 0', 'Margin note', 'Somewhere']);
    const [first, second, third] = children.json().results;
    expect(children.json().results.map((e: { id: string }) => e.id)).toEqual(
      created.map((item) => item.id),
    );
    expect(first).toMatchObject({
      type: 'paragraph',
      confidence: 0.75,
      creator: actors.contributor.email,
      worker_run: { id: runId, summary: SUMMARY },
      zone: { polygon: closed(box(0)), image: { id: image.id } },
    });
    expect(second).toMatchObject({ type: 'text_line', confidence: null });
    expect(second.zone.polygon).toEqual(closed(box(1)));
    expect(third).toMatchObject({ type: 'paragraph', zone: null });

    // Children of the new block can be made the same way: lines inside a region.
    const lines = await post(created[0]!.id, body([block(0, { type: 'text_line' })]));
    expect(lines.statusCode, lines.body).toBe(201);
  });

  it('creates children without polygons under an element without an image', async () => {
    const response = await post(ids.Folder!, body([{ name: 'Loose', type: 'page' }]));
    expect(response.statusCode, response.body).toBe(201);
    const children = await as('guest').get(`elements/${ids.Folder}/children/`);
    expect(names(children.json())).toContain('Loose');
  });

  it.each(['owner', 'siteAdmin'] as const)('lets %s create them', async (role) => {
    const response = await post(ids.Page!, body([block(2)]), role);
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['anonymous', 'private', 401, NOT_AUTHENTICATED],
    ['guest', 'private', 403, NOT_CONTRIBUTOR],
    ['outsider', 'private', 404, NOT_FOUND],
    ['outsider', 'public', 403, NOT_CONTRIBUTOR],
  ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
    const [parent, workerRun] =
      which === 'private' ? [ids.Page!, runId] : [ids['Public page']!, publicRunId];
    await refused(
      () => post(parent, body([block(0)], { worker_run_id: workerRun }), role),
      status,
      expected,
    );
  });

  it('answers 404 for an unknown parent or one that is no UUID', async () => {
    for (const parent of [UNKNOWN_ID, 'page-1']) {
      await refused(() => post(parent, body([block(0)])), 404, NOT_FOUND);
    }
  });

  it('refuses polygons under a parent without an image', async () => {
    await refused(
      () => post(ids.Folder!, body([block(0)])),
      400,
      validation('non_field_errors', NO_ZONE, 'no_zone'),
    );
  });

  it('names every error of the request in one answer, and stores nothing', async () => {
    await refused(
      () =>
        post(
          ids.Page!,
          body(
            [
              block(0),
              block(1, { type: 'volume' }),
              block(2, {
                polygon: [
                  [900, 700],
                  [1001, 700],
                  [1001, 800],
                ],
              }),
            ],
            { worker_run_id: otherRunId },
          ),
        ),
      400,
      {
        type: 'validation_error',
        errors: [
          ...invalidPk('worker_run_id', otherRunId).errors,
          ...validation('elements.1.type', "Type 'volume' not found.", 'does_not_exist').errors,
          ...validation('elements.2.polygon', 'A polygon must be inside its image.').errors,
        ],
      },
    );
  });

  it.each([
    ['an empty list', { elements: [] }, validation('elements', 'This list may not be empty.')],
    [
      'a list of 1001',
      { elements: Array.from({ length: 1001 }, () => block(0)) },
      validation('elements', 'Ensure this field has no more than 1000 elements.'),
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
      'no name',
      { elements: [block(0, { name: undefined })] },
      validation('elements.0.name', 'This field is required.', 'required'),
    ],
    [
      'a blank type',
      { elements: [block(0), block(1, { type: ' ' })] },
      validation('elements.1.type', 'This field may not be blank.', 'blank'),
    ],
    [
      'a polygon as text',
      { elements: [block(0, { polygon: '0,0 10,0 10,10' })] },
      validation('elements.0.polygon', 'Expected a list of items but got type "str".'),
    ],
    [
      'a confidence above 1',
      { elements: [block(0, { confidence: 1.5 })] },
      validation(
        'elements.0.confidence',
        'Ensure this value is less than or equal to 1.',
        'max_value',
      ),
    ],
    [
      'a single element instead of a list',
      { elements: block(0) },
      validation('elements', 'Expected a list of items but got type "dict".'),
    ],
  ])('answers 400 to %s', async (_label, change, expected) => {
    await refused(() => post(ids.Page!, body([block(0)], change)), 400, expected);
  });
});
