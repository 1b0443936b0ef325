/**
 * CreateElementChildren, POST /elements/{id}/children/: existing elements become the last
 * children of one element, in the request's order, keeping their other parents; those already
 * there move to the end. All or nothing, every refusal named in one answer.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActorsAndProjects, makeCorpus, type Actors, type Role } from './actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { expectTopLevelConsistent, insertElements, names } from './elementsFixtures';
import { makeWorkerRun } from './workerRunFixtures';

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const OTHER_PROJECT = 'The parent must be in the same project as the element.';
const LOOP = 'The parent cannot be the element itself or one of its descendants.';

describeEachDialect('element children linked in one request', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let ids: Record<string, string>;
  let publicIds: Record<string, string>;
  let foreignIds: Record<string, string>;
  let secretIds: Record<string, string>;
  let runId: string;
  let otherRunId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const post = (parent: string, body: unknown, role: Role = 'contributor') =>
    as(role).post(`elements/${parent}/children/`, body);
  const children = async (id: string) =>
    names((await as('guest').get(`elements/${id}/children/`)).json());
  const parents = async (id: string) =>
    names((await as('guest').get(`elements/${id}/parents/`)).json()).sort();

  /** Every link with its place, to show that a refused request changed none. */
  const links = () =>
    t()
      .app.db.selectFrom('element_links')
      .select(['parent_id', 'child_id', 'position'])
      .orderBy('parent_id')
      .orderBy('child_id')
      .execute();

  async function refused(send: () => ReturnType<typeof post>, status: number, expected: unknown) {
    const before = await links();
    const response = await send();
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual(expected);
    expect(await links()).toEqual(before);
  }

  beforeAll(async () => {
    const { app } = t();
    let publicId: string;
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app, {
      private: 'Registers',
      public: 'Open registers',
    }));
    const foreignId = await makeCorpus(app, actors, { name: 'Other registers' });
    // A project none of the cast but the site admin belongs to.
    const secret = await as('siteAdmin').post('corpus/', { name: 'Sealed registers' });
    expect(secret.statusCode).toBe(201);
    ids = await insertElements(app, privateId, [
      { name: 'Volume', type: 'folder' },
      { name: 'Folio 1', type: 'page', parent: 'Volume' },
      { name: 'Folio 2', type: 'page', parent: 'Volume' },
      { name: 'Folio 3', type: 'page', parent: 'Volume' },
      { name: 'Box', type: 'folder' },
      { name: 'Boxed', type: 'page', parent: 'Box' },
      { name: 'Loose 1', type: 'page' },
      { name: 'Loose 2', type: 'page' },
      { name: 'Deep', type: 'folder' },
      { name: 'Deeper', type: 'folder', parent: 'Deep' },
      { name: 'Deepest', type: 'folder', parent: 'Deeper' },
    ]);
    publicIds = await insertElements(app, publicId, [
      { name: 'Open volume', type: 'folder' },
      { name: 'Open folio', type: 'page' },
    ]);
    foreignIds = await insertElements(app, foreignId, [{ name: 'Foreign', type: 'page' }]);
    secretIds = await insertElements(app, secret.json().id, [{ name: 'Sealed', type: 'page' }]);
    runId = (await makeWorkerRun(app, privateId)).id;
    otherRunId = (await makeWorkerRun(app, foreignId)).id;
  });

  it('adds the children at the end, in order, moving those already there', async () => {
    const response = await post(ids.Volume!, {
      children: [ids['Folio 1'], ids['Loose 1'], ids.Boxed],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      children: [ids['Folio 1'], ids['Loose 1'], ids.Boxed],
    });
    expect(await children(ids.Volume!)).toEqual([
      'Folio 2',
      'Folio 3',
      'Folio 1',
      'Loose 1',
      'Boxed',
    ]);
    // A child keeps its other parents: an element may have several.
    expect(await parents(ids.Boxed!)).toEqual(['Box', 'Volume']);
    expect(await children(ids.Box!)).toEqual(['Boxed']);
    expect(await parents(ids['Loose 1']!)).toEqual(['Volume']);
    const top = await as('guest').get(`corpus/${privateId}/elements/?top_level=true`);
    expect(names(top.json())).not.toContain('Loose 1');
    await expectTopLevelConsistent(t().app);
  });

  it('takes a worker run of the project, or none', async () => {
    const withRun = await post(ids.Box!, { children: [ids['Loose 2']], worker_run_id: runId });
    expect(withRun.statusCode, withRun.body).toBe(201);
    const withNull = await post(ids.Box!, { children: [ids.Boxed], worker_run_id: null });
    expect(withNull.statusCode, withNull.body).toBe(201);
    expect(await children(ids.Box!)).toEqual(['Loose 2', 'Boxed']);
  });

  it('reads ids in capitals and answers them as the server writes them', async () => {
    const response = await post(ids.Box!, { children: [ids['Loose 2']!.toUpperCase()] });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ children: [ids['Loose 2']] });
    expect(await children(ids.Box!)).toEqual(['Boxed', 'Loose 2']);
  });

  it('lets an element further down become a direct child too', async () => {
    const response = await post(ids.Deep!, { children: [ids.Deepest] });
    expect(response.statusCode, response.body).toBe(201);
    expect(await children(ids.Deep!)).toEqual(['Deeper', 'Deepest']);
    expect(await parents(ids.Deepest!)).toEqual(['Deep', 'Deeper']);
  });

  it.each(['owner', 'siteAdmin'] as const)('lets %s link them', async (role) => {
    const response = await post(ids.Box!, { children: [ids['Loose 2']] }, role);
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    ['anonymous', 'private', 401, NOT_AUTHENTICATED],
    ['guest', 'private', 403, NOT_CONTRIBUTOR],
    ['outsider', 'private', 404, NOT_FOUND],
    ['outsider', 'public', 403, NOT_CONTRIBUTOR],
  ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
    const [parent, child] =
      which === 'private'
        ? [ids.Volume!, ids['Loose 2']!]
        : [publicIds['Open volume']!, publicIds['Open folio']!];
    await refused(() => post(parent, { children: [child] }, role), status, expected);
  });

  it('answers 404 for an unknown parent or one that is no UUID, before reading the body', async () => {
    for (const parent of [UNKNOWN_ID, 'volume-1']) {
      await refused(() => post(parent, { children: 'none' }), 404, NOT_FOUND);
    }
  });

  it('names every refused child in one answer, and links none', async () => {
    const deepest = ids.Deepest!;
    await refused(
      () =>
        post(deepest, {
          children: [
            ids['Loose 1'],
            foreignIds.Foreign,
            secretIds.Sealed,
            UNKNOWN_ID,
            deepest,
            ids.Deep,
            ids['Loose 1'],
          ],
          worker_run_id: otherRunId,
        }),
      400,
      {
        type: 'validation_error',
        errors: [
          ...invalidPk('worker_run_id', otherRunId).errors,
          ...validation('children.1', OTHER_PROJECT).errors,
          // Another project's element the caller cannot read is as unknown as a missing one.
          ...invalidPk('children.2', secretIds.Sealed!).errors,
          ...invalidPk('children.3', UNKNOWN_ID).errors,
          ...validation('children.4', LOOP).errors,
          ...validation('children.5', LOOP).errors,
          ...validation('children.6', 'This element is listed more than once.', 'unique').errors,
        ],
      },
    );
  });

  it.each([
    ['no list', {}, validation('children', 'This field is required.', 'required')],
    ['an empty list', { children: [] }, validation('children', 'This list may not be empty.')],
    [
      'a list of 1001',
      { children: Array.from({ length: 1001 }, () => UNKNOWN_ID) },
      validation('children', 'Ensure this field has no more than 1000 elements.'),
    ],
  ])('refuses %s', async (_label, body, expected) => {
    await refused(() => post(ids.Volume!, body), 400, expected);
  });

  it('refuses ids that are no UUIDs under their place in the list', async () => {
    const before = await links();
    const response = await post(ids.Volume!, {
      children: [ids['Loose 2'], 'folio-2'],
      worker_run_id: 'run',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((error: { attr: string }) => error.attr)).toEqual([
      'children.1',
      'worker_run_id',
    ]);
    expect(await links()).toEqual(before);
  });
});
