import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { NOT_FOUND, UNKNOWN_ID, denied, validation } from '../expectedErrors';
import {
  clientAs,
  insertWorker,
  makeModel,
  makeModelCast,
  type ModelCast,
  type ModelRole,
} from './fixtures';

const NOT_CONTRIBUTOR = denied('A contributor access level is required to edit a model');

describeEachDialect('model compatible workers', ({ t }) => {
  let cast: ModelCast;
  const as = (role: ModelRole | 'anonymous') => clientAs(t().app, cast, role);
  const listed = async (role: ModelRole, modelId: string) => {
    const response = await as(role).get(`model/${modelId}/compatible-workers/`);
    expect(response.statusCode).toBe(200);
    return (response.json().results as { id: string }[]).map((worker) => worker.id);
  };

  beforeAll(async () => {
    cast = await makeModelCast(t().app);
  });

  it('lets contributors add and remove workers, readers list them', async () => {
    const modelId = await makeModel(t().app, cast);
    const first = await insertWorker(t().app, 'Alpha');
    const second = await insertWorker(t().app, 'Beta');
    const added = await as('contributor').post(`model/${modelId}/compatible-worker/${first}/`);
    expect([added.statusCode, added.json()]).toEqual([
      201,
      { model_id: modelId, worker_id: first },
    ]);
    expect(
      (await as('siteAdmin').post(`model/${modelId}/compatible-worker/${second}/`)).statusCode,
    ).toBe(201);

    const page = (await as('guest').get(`model/${modelId}/compatible-workers/`)).json();
    expect(page.count).toBe(2);
    expect(page.results[0]).toEqual({
      id: first,
      name: 'Alpha',
      slug: expect.stringMatching(/^alpha-/),
      type: 'recognizer',
      description: '',
      repository_url: null,
      archived: false,
    });

    expect(
      (await as('owner').delete(`model/${modelId}/compatible-worker/${first}/`)).statusCode,
    ).toBe(204);
    expect(await listed('owner', modelId)).toEqual([second]);
    const again = await as('owner').delete(`model/${modelId}/compatible-worker/${first}/`);
    expect([again.statusCode, again.json()]).toEqual([404, NOT_FOUND]);
  });

  it('refuses guests, readers, outsiders and anonymous users', async () => {
    const modelId = await makeModel(t().app, cast);
    const publicId = await makeModel(t().app, cast, { public: true });
    const worker = await insertWorker(t().app);
    const guest = await as('guest').post(`model/${modelId}/compatible-worker/${worker}/`);
    expect([guest.statusCode, guest.json()]).toEqual([403, NOT_CONTRIBUTOR]);
    const reader = await as('outsider').post(`model/${publicId}/compatible-worker/${worker}/`);
    expect([reader.statusCode, reader.json()]).toEqual([403, NOT_CONTRIBUTOR]);
    expect(await listed('outsider', publicId)).toEqual([]);
    const outsider = await as('outsider').post(`model/${modelId}/compatible-worker/${worker}/`);
    expect([outsider.statusCode, outsider.json()]).toEqual([404, NOT_FOUND]);
    expect((await as('outsider').get(`model/${modelId}/compatible-workers/`)).statusCode).toBe(404);
    expect((await as('anonymous').get(`model/${modelId}/compatible-workers/`)).statusCode).toBe(
      401,
    );
    expect(await listed('owner', modelId)).toEqual([]);
    await as('owner').post(`model/${modelId}/compatible-worker/${worker}/`);
    const removeAsGuest = await as('guest').delete(`model/${modelId}/compatible-worker/${worker}/`);
    expect(removeAsGuest.statusCode).toBe(403);
    expect(await listed('owner', modelId)).toEqual([worker]);
  });

  it('refuses unknown workers and adding twice', async () => {
    const modelId = await makeModel(t().app, cast);
    const worker = await insertWorker(t().app);
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      const response = await as('owner').post(`model/${modelId}/compatible-worker/${id}/`);
      expect([response.statusCode, response.json()]).toEqual([404, NOT_FOUND]);
    }
    expect(
      (await as('owner').post(`model/${modelId}/compatible-worker/${worker}/`)).statusCode,
    ).toBe(201);
    const twice = await as('owner').post(`model/${modelId}/compatible-worker/${worker}/`);
    expect([twice.statusCode, twice.json()]).toEqual([
      400,
      validation(
        'non_field_errors',
        'This worker is already compatible with this model.',
        'unique',
      ),
    ]);
    expect(
      (await as('owner').post(`model/${UNKNOWN_ID}/compatible-worker/${worker}/`)).statusCode,
    ).toBe(404);
  });
});
