import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { makeCorpus } from '../actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from '../expectedErrors';
import { typeIds } from '../elementsFixtures';
import {
  client,
  makeWorkerCast,
  publishVersion,
  publishWorker,
  type WorkerCast,
  type WorkerRole,
} from './fixtures';

const UNVERIFIED = denied('You must verify your email address to perform this action.');

describeEachDialect('local worker runs', ({ t }) => {
  let cast: WorkerCast;
  const as = (role: WorkerRole | 'anonymous') => client(t().app, cast, role);
  let worker: { id: string; name: string };
  let versionId: string;
  let modelVersionId: string;

  beforeAll(async () => {
    cast = await makeWorkerCast(t().app);
    worker = await publishWorker(as('manager'), { name: 'My OCR' });
    versionId = (await publishVersion(as('manager'), worker.id, { state: 'available' })).id;
    const modelId = randomUUID();
    modelVersionId = randomUUID();
    const now = new Date().toISOString();
    await t()
      .app.db.insertInto('models')
      .values({ id: modelId, name: 'Weights', description: '', public: 1, created: now })
      .execute();
    await t()
      .app.db.insertInto('model_versions')
      .values({
        id: modelVersionId,
        model_id: modelId,
        tag: null,
        hash: null,
        state: 'available',
        configuration: '{}',
        created: now,
      })
      .execute();
  });

  const configuration = async (workerId: string, archived = false) => {
    const made = await as('verified').post(`workers/${workerId}/configurations/`, {
      name: `Local ${randomUUID()}`,
      configuration: { size: 3 },
    });
    expect(made.statusCode).toBe(201);
    if (archived)
      await as('manager').patch(`workers/configurations/${made.json().id}/`, { archived: true });
    return made.json().id as string;
  };

  describe('POST /process/local/workers/create/ and GET /process/local/workers/', () => {
    it('adds worker runs to the caller’s own local process, made on first use', async () => {
      expect((await as('verified').get('process/local/workers/')).json()).toMatchObject({
        count: 0,
        results: [],
      });
      const configurationId = await configuration(worker.id);
      const created = await as('verified').post('process/local/workers/create/', {
        worker_version_id: versionId,
        model_version_id: modelVersionId,
        configuration_id: configurationId,
      });
      expect(created.statusCode).toBe(201);
      const run = created.json();
      expect(run).toMatchObject({
        id: expect.stringMatching(UUID),
        parents: [],
        worker_version: { id: versionId, worker: { id: worker.id, name: 'My OCR' } },
        model_version: { id: modelVersionId },
        configuration: { id: configurationId },
        process: { corpus: null, mode: 'local' },
      });
      const plain = await as('verified').post('process/local/workers/create/', {
        worker_version_id: versionId,
      });
      expect(plain.statusCode).toBe(201);
      expect(plain.json().process.id).toBe(run.process.id);

      const list = await as('verified').get('process/local/workers/');
      expect(list.statusCode).toBe(200);
      expect(list.json().count).toBe(2);
      expect(list.json().results.map((r: { id: string }) => r.id)).toEqual([
        run.id,
        plain.json().id,
      ]);
      expect(list.json().results[0]).toEqual(run);

      // Someone else's local runs are their own.
      expect((await as('manager').get('process/local/workers/')).json().count).toBe(0);
      const theirs = await as('manager').post('process/local/workers/create/', {
        worker_version_id: versionId,
      });
      expect(theirs.json().process.id).not.toBe(run.process.id);
    });

    it('answers 409 with the existing run for the same version, model and configuration', async () => {
      const first = await as('admin').post('process/local/workers/create/', {
        worker_version_id: versionId,
        model_version_id: modelVersionId,
      });
      const again = await as('admin').post('process/local/workers/create/', {
        worker_version_id: versionId,
        model_version_id: modelVersionId,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        type: 'client_error',
        errors: [{ code: 'conflict' }],
        existing_id: first.json().id,
      });
    });

    it('refuses unknown ids, another worker’s and archived configurations', async () => {
      const otherWorker = await publishWorker(as('manager'));
      const foreign = await configuration(otherWorker.id);
      const archived = await configuration(worker.id, true);
      const privateModel = randomUUID();
      const privateVersion = randomUUID();
      const now = new Date().toISOString();
      await t()
        .app.db.insertInto('models')
        .values({ id: privateModel, name: 'Secret', description: '', created: now })
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
          created: now,
        })
        .execute();
      const cases: [Record<string, unknown>, unknown][] = [
        [
          { worker_version_id: versionId, model_version_id: privateVersion },
          invalidPk('model_version_id', privateVersion),
        ],
        [{ worker_version_id: UNKNOWN_ID }, invalidPk('worker_version_id', UNKNOWN_ID)],
        [
          { worker_version_id: versionId, model_version_id: UNKNOWN_ID },
          invalidPk('model_version_id', UNKNOWN_ID),
        ],
        [
          { worker_version_id: versionId, configuration_id: UNKNOWN_ID },
          invalidPk('configuration_id', UNKNOWN_ID),
        ],
        [
          { worker_version_id: versionId, configuration_id: foreign },
          validation(
            'configuration_id',
            'The configuration must be one of the worker version’s worker.',
          ),
        ],
        [
          { worker_version_id: versionId, configuration_id: archived },
          validation('configuration_id', 'An archived configuration cannot be used.'),
        ],
        [{}, validation('worker_version_id', 'This field is required.', 'required')],
        [{ worker_version_id: 'nope' }, validation('worker_version_id', 'Must be a valid UUID.')],
      ];
      for (const [body, error] of cases) {
        const response = await as('manager').post('process/local/workers/create/', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toEqual(error);
      }
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
    ] as const)('refuses %s', async (role, status, body) => {
      const created = await as(role).post('process/local/workers/create/', {
        worker_version_id: versionId,
      });
      expect(created.statusCode).toBe(status);
      expect(created.json()).toEqual(body);
      const listed = await as(role).get('process/local/workers/');
      expect(listed.statusCode).toBe(status);
    });
  });

  describe('GET /process/workers/{id}/ of a local run', () => {
    it('is read by its creator and site admins, and by nobody else', async () => {
      const other = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), other.id);
      const run = (
        await as('verified').post('process/local/workers/create/', {
          worker_version_id: version.id,
        })
      ).json();
      const mine = await as('verified').get(`process/workers/${run.id}/`);
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toEqual(run);
      expect((await as('admin').get(`process/workers/${run.id}/`)).statusCode).toBe(200);
      for (const role of ['manager', 'anonymous'] as const) {
        const response = await as(role).get(`process/workers/${run.id}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      // Its creator changes it too; nobody else sees it to change.
      const configurationId = await configuration(other.id);
      const changed = await as('verified').patch(`process/workers/${run.id}/`, {
        configuration_id: configurationId,
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().configuration).toMatchObject({ id: configurationId });
      const refused = await as('manager').patch(`process/workers/${run.id}/`, {
        configuration_id: null,
      });
      expect(refused.statusCode).toBe(404);
    });
  });

  describe('results of a local run', () => {
    it('are written by its creator where they may write, and list its version in the project', async () => {
      const cast3 = { owner: cast.verified, contributor: cast.manager, guest: cast.admin };
      const corpusId = await makeCorpus(t().app, cast3, { name: 'Local results' });
      const types = await typeIds(t().app, corpusId);
      const elementId = randomUUID();
      const now = new Date().toISOString();
      await t()
        .app.db.insertInto('elements')
        .values({
          id: elementId,
          corpus_id: corpusId,
          type_id: Object.values(types)[0]!,
          name: 'page',
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
      const developed = await publishWorker(as('manager'), { name: 'Developed here' });
      const version = await publishVersion(as('manager'), developed.id);
      const run = (
        await as('verified').post('process/local/workers/create/', {
          worker_version_id: version.id,
        })
      ).json();
      const before = await as('verified').get(`corpus/${corpusId}/versions/`);
      expect(before.json().count).toBe(0);

      const written = await as('verified').post(`element/${elementId}/transcription/`, {
        text: 'Lorem',
        confidence: 0.9,
        worker_run_id: run.id,
      });
      expect(written.statusCode, written.body).toBe(201);
      expect(written.json().worker_run).toEqual({
        id: run.id,
        summary: expect.stringContaining('Worker Developed here @ 1'),
      });
      const bulk = await as('verified').post('transcription/bulk/', {
        worker_run_id: run.id,
        transcriptions: [{ element_id: elementId, text: 'Ipsum', confidence: 0.5 }],
      });
      expect(bulk.statusCode, bulk.body).toBe(201);
      const after = await as('verified').get(`corpus/${corpusId}/versions/`);
      expect(after.json().results.map((v: { id: string }) => v.id)).toEqual([version.id]);

      // Someone else's local run is no run of theirs, even where they may write.
      for (const response of [
        await as('manager').post(`element/${elementId}/transcription/`, {
          text: 'Not mine',
          confidence: 0.9,
          worker_run_id: run.id,
        }),
        await as('manager').post('transcription/bulk/', {
          worker_run_id: run.id,
          transcriptions: [{ element_id: elementId, text: 'Not mine', confidence: 0.5 }],
        }),
      ]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidPk('worker_run_id', run.id));
      }
    });
  });

  describe('activities of a local run', () => {
    it('are reported by its creator on elements they may write, and by nobody else', async () => {
      const owner = { owner: cast.verified, contributor: cast.manager, guest: cast.admin };
      const corpusId = await makeCorpus(t().app, owner, { name: 'Local' });
      const types = await typeIds(t().app, corpusId);
      const elementId = randomUUID();
      const now = new Date().toISOString();
      await t()
        .app.db.insertInto('elements')
        .values({
          id: elementId,
          corpus_id: corpusId,
          type_id: Object.values(types)[0]!,
          name: 'page',
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
      const other = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), other.id);
      const run = (
        await as('verified').post('process/local/workers/create/', {
          worker_version_id: version.id,
        })
      ).json();
      const body = { element_id: elementId, process_id: run.process.id, state: 'started' };
      const path = `workers/versions/${run.id}/activity/`;
      const mine = await as('verified').put(path, body);
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toEqual(body);
      const stranger = await as('manager').put(path, { ...body, state: 'error' });
      expect(stranger.statusCode).toBe(404);
    });
  });
});
