import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import {
  NOT_ADMIN,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  invalidPk,
  validation,
} from '../expectedErrors';
import { makeWorkerRun } from '../workerRunFixtures';

const NOW = '2024-05-01T10:00:00.000Z';

async function addConfiguration(app: FastifyInstance, workerId: string, archived = false) {
  const id = randomUUID();
  await app.db
    .insertInto('worker_configurations')
    .values({
      id,
      worker_id: workerId,
      name: `Configuration ${id.slice(0, 8)}`,
      configuration: '{"size": 2}',
      archived: archived ? 1 : 0,
    })
    .execute();
  return id;
}

async function workerOf(app: FastifyInstance, versionId: string): Promise<string> {
  return (
    await app.db
      .selectFrom('worker_versions')
      .select('worker_id')
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow()
  ).worker_id;
}

describeEachDialect('worker run updates', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
  });

  describe('PATCH /process/workers/{id}/', () => {
    it('sets, then removes, a run’s configuration and model version for a project admin', async () => {
      const run = await makeWorkerRun(t().app, privateId, { modelName: 'Lines' });
      const configurationId = await addConfiguration(
        t().app,
        await workerOf(t().app, run.workerVersionId),
      );
      const set = await as('owner').patch(`process/workers/${run.id}/`, {
        configuration_id: configurationId,
      });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({
        id: run.id,
        configuration: { id: configurationId, configuration: { size: 2 } },
        model_version: { id: run.modelVersionId },
      });
      const removed = await as('siteAdmin').patch(`process/workers/${run.id}/`, {
        configuration_id: null,
        model_version_id: null,
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toMatchObject({ configuration: null, model_version: null });
      expect((await as('guest').get(`process/workers/${run.id}/`)).json()).toEqual(removed.json());
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['outsider', 'private', 404, NOT_FOUND],
      ['guest', 'private', 403, NOT_ADMIN],
      ['contributor', 'private', 403, NOT_ADMIN],
      ['outsider', 'public', 403, NOT_ADMIN],
    ] as const)('refuses %s on a %s project', async (role, project, status, body) => {
      const run = await makeWorkerRun(t().app, project === 'private' ? privateId : publicId, {
        configurationName: 'Kept',
      });
      const response = await as(role).patch(`process/workers/${run.id}/`, {
        configuration_id: null,
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
      const read = await as('siteAdmin').get(`process/workers/${run.id}/`);
      expect(read.json().configuration).toMatchObject({ name: 'Kept' });
    });

    it('refuses configurations and model versions the run cannot take', async () => {
      const run = await makeWorkerRun(t().app, privateId);
      const workerId = await workerOf(t().app, run.workerVersionId);
      const archived = await addConfiguration(t().app, workerId, true);
      const other = await makeWorkerRun(t().app, privateId);
      const foreign = await addConfiguration(
        t().app,
        await workerOf(t().app, other.workerVersionId),
      );
      const privateModel = randomUUID();
      const privateVersion = randomUUID();
      await t()
        .app.db.insertInto('models')
        .values({ id: privateModel, name: 'Hidden', description: '', created: NOW })
        .execute();
      await t()
        .app.db.insertInto('model_versions')
        .values({
          id: privateVersion,
          model_id: privateModel,
          tag: null,
          hash: null,
          state: 'available',
          configuration: '{}',
          created: NOW,
        })
        .execute();
      const cases: [Record<string, unknown>, unknown][] = [
        [
          { configuration_id: archived },
          validation('configuration_id', 'An archived configuration cannot be used.'),
        ],
        [
          { configuration_id: foreign },
          validation(
            'configuration_id',
            'The configuration must be one of the worker version’s worker.',
          ),
        ],
        [{ configuration_id: UNKNOWN_ID }, invalidPk('configuration_id', UNKNOWN_ID)],
        [{ model_version_id: privateVersion }, invalidPk('model_version_id', privateVersion)],
        [{ configuration_id: 'x' }, validation('configuration_id', 'Must be a valid UUID.')],
      ];
      for (const [body, error] of cases) {
        const response = await as('owner').patch(`process/workers/${run.id}/`, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toEqual(error);
      }
    });

    it('answers 409 when the process already has a run with the same choices', async () => {
      const run = await makeWorkerRun(t().app, privateId, { configurationName: 'A' });
      const twin = randomUUID();
      const source = await t()
        .app.db.selectFrom('worker_runs')
        .selectAll()
        .where('id', '=', run.id)
        .executeTakeFirstOrThrow();
      await t()
        .app.db.insertInto('worker_runs')
        .values({ ...source, id: twin, configuration_id: null })
        .execute();
      const response = await as('owner').patch(`process/workers/${run.id}/`, {
        configuration_id: null,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ errors: [{ code: 'conflict' }], existing_id: twin });
    });

    it('answers 404 to unknown and malformed ids', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const response = await as('owner').patch(`process/workers/${id}/`, {});
        expect(response.statusCode).toBe(404);
      }
    });
  });
});
