import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  invalidPk,
  validation,
} from '../expectedErrors';
import { typeIds } from '../elementsFixtures';
import { makeWorkerRun } from '../workerRunFixtures';

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const TAKEN = {
  type: 'client_error',
  errors: [
    {
      code: 'conflict',
      detail: 'This element has already been started or processed by this worker run.',
      attr: 'state',
    },
  ],
};

async function insertElement(app: FastifyInstance, corpusId: string): Promise<string> {
  const types = await typeIds(app, corpusId);
  const id = randomUUID();
  const now = new Date().toISOString();
  await app.db
    .insertInto('elements')
    .values({
      id,
      corpus_id: corpusId,
      type_id: Object.values(types)[0]!,
      name: `page ${id.slice(0, 4)}`,
      image_id: null,
      polygon: null,
      rotation_angle: 0,
      mirrored: 0,
      confidence: null,
      creator_id: null,
      worker_run_id: null,
      created: now,
      updated: now,
      children_updated: null,
    })
    .execute();
  return id;
}

async function processOf(app: FastifyInstance, runId: string): Promise<string> {
  const row = await app.db
    .selectFrom('worker_runs')
    .select('process_id')
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
  return row.process_id;
}

describeEachDialect('worker activities', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
  });

  const fresh = async (corpusId = privateId) => {
    const run = await makeWorkerRun(t().app, corpusId);
    return {
      run,
      processId: await processOf(t().app, run.id),
      elementId: await insertElement(t().app, corpusId),
    };
  };

  const stateOf = async (runId: string, elementId: string) =>
    (
      await t()
        .app.db.selectFrom('worker_activities')
        .select('state')
        .where('worker_run_id', '=', runId)
        .where('element_id', '=', elementId)
        .executeTakeFirst()
    )?.state;

  describe('PUT /workers/versions/{id}/activity/', () => {
    it('records an element’s progress; a second start answers 409', async () => {
      const { run, processId, elementId } = await fresh();
      const put = (state: string) =>
        as('contributor').put(`workers/versions/${run.id}/activity/`, {
          element_id: elementId,
          process_id: processId,
          state,
        });
      const started = await put('started');
      expect(started.statusCode).toBe(200);
      expect(started.json()).toEqual({
        element_id: elementId,
        process_id: processId,
        state: 'started',
      });
      expect(await stateOf(run.id, elementId)).toBe('started');
      const again = await put('started');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual(TAKEN);
      expect((await put('processed')).statusCode).toBe(200);
      expect(await stateOf(run.id, elementId)).toBe('processed');
      expect((await put('started')).statusCode).toBe(409);
      expect(await stateOf(run.id, elementId)).toBe('processed');
      // A failed element may be started again.
      expect((await put('error')).statusCode).toBe(200);
      expect((await put('started')).statusCode).toBe(200);
      expect(await stateOf(run.id, elementId)).toBe('started');
    });

    it('takes a queued element once', async () => {
      const { run, processId, elementId } = await fresh();
      const body = { element_id: elementId, process_id: processId };
      const path = `workers/versions/${run.id}/activity/`;
      expect((await as('owner').put(path, { ...body, state: 'queued' })).statusCode).toBe(200);
      const results = await Promise.all([
        as('owner').put(path, { ...body, state: 'started' }),
        as('contributor').put(path, { ...body, state: 'started' }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    });

    it('accepts a worker version id with its process, as older workers send', async () => {
      const { run, processId, elementId } = await fresh();
      const response = await as('owner').put(`workers/versions/${run.workerVersionId}/activity/`, {
        element_id: elementId,
        process_id: processId,
        state: 'processed',
      });
      expect(response.statusCode).toBe(200);
      expect(await stateOf(run.id, elementId)).toBe('processed');
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['outsider', 'private', 404, NOT_FOUND],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)(
      'refuses %s on a %s project and records nothing',
      async (role, project, status, body) => {
        const { run, processId, elementId } = await fresh(
          project === 'private' ? privateId : publicId,
        );
        const response = await as(role).put(`workers/versions/${run.id}/activity/`, {
          element_id: elementId,
          process_id: processId,
          state: 'started',
        });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(body);
        expect(await stateOf(run.id, elementId)).toBeUndefined();
      },
    );

    it('answers 400 to bad bodies and elements or processes that are not the run’s', async () => {
      const { run, processId, elementId } = await fresh();
      const path = `workers/versions/${run.id}/activity/`;
      const cases: [unknown, unknown][] = [
        [
          { element_id: elementId, process_id: processId, state: 'done' },
          validation('state', '"done" is not a valid choice.', 'invalid_choice'),
        ],
        [
          { element_id: 'x', process_id: processId, state: 'started' },
          validation('element_id', 'Must be a valid UUID.'),
        ],
        [
          { element_id: elementId, state: 'started' },
          validation('process_id', 'This field is required.', 'required'),
        ],
      ];
      const elsewhere = await insertElement(t().app, publicId);
      cases.push([
        { element_id: elsewhere, process_id: processId, state: 'started' },
        invalidPk('element_id', elsewhere),
      ]);
      const other = await fresh();
      cases.push([
        { element_id: elementId, process_id: other.processId, state: 'started' },
        invalidPk('process_id', other.processId),
      ]);
      for (const [body, error] of cases) {
        const response = await as('owner').put(path, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toEqual(error);
      }
      expect(await stateOf(run.id, elementId)).toBeUndefined();
    });

    it('answers 404 for unknown and malformed ids', async () => {
      const { processId, elementId } = await fresh();
      for (const id of [UNKNOWN_ID, 'abc']) {
        const response = await as('owner').put(`workers/versions/${id}/activity/`, {
          element_id: elementId,
          process_id: processId,
          state: 'started',
        });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });
});
