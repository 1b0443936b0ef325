import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { NOT_ADMIN, NOT_AUTHENTICATED, NOT_FOUND, UNKNOWN_ID, validation } from '../expectedErrors';
import {
  addRun,
  createProcess,
  makeConfiguration,
  makeTree,
  makeVersion,
  setTaskStates,
} from './fixtures';

const CYCLE = validation('parents', 'Worker runs cannot form a cycle.');
const AFTER_START = {
  type: 'client_error',
  errors: [
    {
      code: 'invalid',
      detail: 'The worker runs cannot be changed once the process has started.',
      attr: null,
    },
  ],
};

describeEachDialect('worker runs of a process', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    await makeTree(t().app, privateId);
  });

  const runCount = async (processId: string) =>
    (
      await t()
        .app.db.selectFrom('worker_runs')
        .select('id')
        .where('process_id', '=', processId)
        .execute()
    ).length;

  it('adds, lists, links, and removes runs for a project admin', async () => {
    const owner = as('owner');
    const process = await createProcess(owner, privateId);
    const first = await makeVersion(t().app, { slug: 'lines' });
    const second = await makeVersion(t().app, { slug: 'ocr' });
    const a = await addRun(owner, process.id, first.versionId);
    const b = await addRun(owner, process.id, second.versionId, [a]);
    const listed = await as('guest').get(`process/${process.id}/workers/`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({
      count: 2,
      results: [
        { id: a, parents: [], worker_version: { id: first.versionId, worker: { slug: 'lines' } } },
        { id: b, parents: [a], process: { id: process.id, mode: 'workers' } },
      ],
    });
    const third = await makeVersion(t().app);
    const c = await addRun(owner, process.id, third.versionId, [a, b]);
    const unlinked = await owner.patch(`process/workers/${c}/`, { parents: [b] });
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json().parents).toEqual([b]);
    const removed = await owner.delete(`process/workers/${b}/`);
    expect(removed.statusCode).toBe(204);
    expect((await owner.get(`process/workers/${c}/`)).json().parents).toEqual([]);
    expect(await runCount(process.id)).toBe(2);
  });

  it('refuses cycles, unknown parents, archived configurations and the same run twice', async () => {
    const owner = as('owner');
    const process = await createProcess(owner, privateId);
    const other = await createProcess(owner, privateId);
    const version = await makeVersion(t().app);
    const a = await addRun(owner, process.id, version.versionId);
    const b = await addRun(owner, process.id, (await makeVersion(t().app)).versionId, [a]);
    const elsewhere = await addRun(owner, other.id, version.versionId);

    const cycle = await owner.patch(`process/workers/${a}/`, { parents: [b] });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json()).toEqual(CYCLE);
    expect((await owner.patch(`process/workers/${a}/`, { parents: [a] })).json()).toEqual(CYCLE);
    const foreign = await owner.post(`process/${process.id}/workers/`, {
      worker_version_id: version.versionId,
      parents: [elsewhere],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0]).toMatchObject({ attr: 'parents', code: 'does_not_exist' });

    const archived = await makeConfiguration(t().app, version.workerId, true);
    const refused = await owner.post(`process/${process.id}/workers/`, {
      worker_version_id: version.versionId,
      parents: [],
      configuration_id: archived,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(
      validation('configuration_id', 'An archived configuration cannot be used.'),
    );
    const twice = await owner.post(`process/${process.id}/workers/`, {
      worker_version_id: version.versionId,
      parents: [],
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ existing_id: a });

    for (const body of [
      {},
      { worker_version_id: 'x', parents: [] },
      { worker_version_id: version.versionId, parents: 'a' },
      { worker_version_id: UNKNOWN_ID, parents: [] },
    ]) {
      expect((await owner.post(`process/${process.id}/workers/`, body)).statusCode).toBe(400);
    }
    expect((await owner.patch(`process/workers/${a}/`, { parents: ['x'] })).statusCode).toBe(400);
    expect(await runCount(process.id)).toBe(2);
    expect((await owner.get(`process/workers/${a}/`)).json().parents).toEqual([]);
  });

  it('answers non-admins as the project’s rights say', async () => {
    const process = await createProcess(as('owner'), publicId);
    const version = await makeVersion(t().app);
    const run = await addRun(as('owner'), process.id, version.versionId);
    const body = { worker_version_id: (await makeVersion(t().app)).versionId, parents: [] };
    const cases: [Role, number, unknown][] = [
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['guest', 403, NOT_ADMIN],
      ['contributor', 403, NOT_ADMIN],
      ['outsider', 403, NOT_ADMIN],
    ];
    for (const [role, status, answer] of cases) {
      const created = await as(role).post(`process/${process.id}/workers/`, body);
      expect(created.statusCode, role).toBe(status);
      expect(created.json()).toEqual(answer);
      expect((await as(role).delete(`process/workers/${run}/`)).statusCode).toBe(status);
      expect((await as(role).delete(`process/${process.id}/clear/`)).statusCode).toBe(status);
    }
    const hidden = await createProcess(as('owner'), privateId);
    expect((await as('outsider').get(`process/${hidden.id}/workers/`)).json()).toEqual(NOT_FOUND);
    expect((await as('owner').delete(`process/workers/${UNKNOWN_ID}/`)).statusCode).toBe(404);
    expect((await as('owner').post(`process/${UNKNOWN_ID}/workers/`, body)).statusCode).toBe(404);
    expect(await runCount(process.id)).toBe(1);
  });

  it('clears the runs of a process without tasks, and changes none once it has started', async () => {
    const owner = as('owner');
    const process = await createProcess(owner, privateId);
    const version = await makeVersion(t().app);
    const a = await addRun(owner, process.id, version.versionId);
    await addRun(owner, process.id, (await makeVersion(t().app)).versionId, [a]);
    const cleared = await owner.delete(`process/${process.id}/clear/`);
    expect(cleared.statusCode).toBe(204);
    expect(await runCount(process.id)).toBe(0);

    const run = await addRun(owner, process.id, version.versionId);
    expect((await owner.post(`process/${process.id}/start/`, {})).statusCode).toBe(201);
    const later = await makeVersion(t().app);
    const refusals = [
      await owner.post(`process/${process.id}/workers/`, {
        worker_version_id: later.versionId,
        parents: [],
      }),
      await owner.patch(`process/workers/${run}/`, { parents: [] }),
      await owner.delete(`process/workers/${run}/`),
      await owner.delete(`process/${process.id}/clear/`),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(AFTER_START);
    }
    expect(await runCount(process.id)).toBe(1);
    await setTaskStates(t().app, process.id, 'completed');
  });
});
