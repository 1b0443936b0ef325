import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { NOT_ADMIN, NOT_FOUND, UNKNOWN_ID } from '../expectedErrors';
import { jobDefinition } from '../../../server/jobs/queue';
import { newToken } from '../../../server/services/tasks/tokens';
import {
  activities,
  addRun,
  createProcess,
  makeConfiguration,
  makeTree,
  makeVersion,
  setTaskStates,
  tasksOf,
} from './fixtures';

const refusal = (detail: string) => ({
  type: 'client_error',
  errors: [{ code: 'invalid', detail, attr: null }],
});

describeEachDialect('starting, retrying, stopping and deleting processes', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    ids = await makeTree(t().app, privateId);
  });

  /** A process on the five pages, with one run of a fresh worker. */
  async function readyProcess(name = 'Pages') {
    const process = await createProcess(as('owner'), privateId, {
      name,
      load_children: 'all',
      element_type: 'page',
    });
    const version = await makeVersion(t().app);
    const run = await addRun(as('owner'), process.id, version.versionId);
    return { id: process.id, run, version };
  }

  describe('POST /process/{id}/start/', () => {
    it('splits the elements into chunks, one task per run and chunk, waiting for parents', async () => {
      const owner = as('owner');
      const process = await createProcess(owner, privateId, {
        name: 'Chunks',
        load_children: 'all',
        element_type: 'page',
      });
      const layout = await makeVersion(t().app, { slug: `layout_${randomUUID().slice(0, 4)}` });
      const ocr = await makeVersion(t().app, { slug: `ocr_${randomUUID().slice(0, 4)}` });
      const configuration = await makeConfiguration(t().app, layout.workerId);
      const a = await addRun(owner, process.id, layout.versionId);
      const b = await addRun(owner, process.id, ocr.versionId, [a]);
      const c = await addRun(owner, process.id, layout.versionId, [b], {
        configuration_id: configuration,
      });

      const started = await owner.post(`process/${process.id}/start/`, { chunks: 2 });
      expect(started.statusCode, started.body).toBe(201);
      const body = started.json();
      expect(body).toMatchObject({
        state: 'pending',
        chunks: 2,
        use_gpu: false,
        farm: { name: 'Default farm' },
        activity_state: 'ready',
      });
      expect(body.started).not.toBeNull();
      const tasks = body.tasks as {
        id: string;
        slug: string;
        state: string;
        depth: number;
        run: number;
        chunk: number | null;
        parents: string[];
        elements_count: number;
        worker_run: { id: string };
      }[];
      const workerSlug = async (workerId: string) =>
        (
          await t()
            .app.db.selectFrom('workers')
            .select('slug')
            .where('id', '=', workerId)
            .executeTakeFirstOrThrow()
        ).slug;
      const L = await workerSlug(layout.workerId);
      const O = await workerSlug(ocr.workerId);
      expect(tasks.map((task) => [task.slug, task.depth, task.state, task.elements_count])).toEqual(
        [
          [`${L}_1`, 0, 'pending', 3],
          [`${L}_2`, 0, 'pending', 2],
          [`${O}_1`, 1, 'unscheduled', 3],
          [`${O}_2`, 1, 'unscheduled', 2],
          [`${L}_2_1`, 2, 'unscheduled', 3],
          [`${L}_2_2`, 2, 'unscheduled', 2],
        ],
      );
      const bySlug = Object.fromEntries(tasks.map((task) => [task.slug, task]));
      expect(bySlug[`${O}_1`]!.parents).toEqual([bySlug[`${L}_1`]!.id]);
      expect(bySlug[`${O}_2`]!.parents).toEqual([bySlug[`${L}_2`]!.id]);
      expect(bySlug[`${L}_2_2`]!.parents).toEqual([bySlug[`${O}_2`]!.id]);
      expect(bySlug[`${L}_2_2`]!.worker_run.id).toBe(c);
      expect(bySlug[`${O}_1`]!.worker_run.id).toBe(b);
      expect(tasks.every((task) => task.run === 0)).toBe(true);
      expect(tasks.map((task) => task.chunk)).toEqual([1, 2, 1, 2, 1, 2]);

      const rows = await t()
        .app.db.selectFrom('tasks')
        .select(['slug', 'elements'])
        .where('process_id', '=', process.id)
        .execute();
      const chunkOne = JSON.parse(rows.find((row) => row.slug === `${L}_1`)!.elements);
      expect(chunkOne).toEqual([ids['Loose page'], ids['Page 1'], ids['Page 2']]);
      const chunkTwo = JSON.parse(rows.find((row) => row.slug === `${L}_2`)!.elements);
      expect(chunkTwo).toEqual([ids['Page 3'], ids['Page 4']]);

      const made = await activities(t().app, process.id);
      expect(made).toHaveLength(15);
      expect(made.every((row) => row.state === 'queued')).toBe(true);
      const stats = await as('guest').get(`process/${process.id}/activity-stats/`);
      expect(stats.json()).toEqual({ queued: 15, started: 0, processed: 0, error: 0 });

      const again = await owner.post(`process/${process.id}/start/`, {});
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(refusal('This process has already been started.'));
      expect(await tasksOf(owner, process.id)).toHaveLength(6);
    });

    it('makes one task per run without chunks, named after the worker', async () => {
      const process = await readyProcess();
      const started = await as('owner').post(`process/${process.id}/start/`, {
        use_gpu: true,
      });
      expect(started.statusCode).toBe(201);
      expect(started.json().tasks).toMatchObject([
        { chunk: null, elements_count: 5, parents: [], state: 'pending', requires_gpu: false },
      ]);
      expect(started.json().use_gpu).toBe(true);
    });

    it('refuses what cannot run, and starts nothing', async () => {
      const owner = as('owner');
      const noRuns = await createProcess(owner, privateId);
      const check = async (
        processId: string,
        body: Record<string, unknown>,
        detail: string | null,
        status = 400,
      ) => {
        const response = await owner.post(`process/${processId}/start/`, body);
        expect(response.statusCode, response.body).toBe(status);
        if (detail) expect(response.json()).toEqual(refusal(detail));
        expect(await tasksOf(owner, processId)).toEqual([]);
      };
      await check(noRuns.id, {}, 'This process has no worker runs to start.');

      const archived = await readyProcess();
      const configuration = await makeConfiguration(t().app, archived.version.workerId);
      await owner.patch(`process/workers/${archived.run}/`, { configuration_id: configuration });
      await t()
        .app.db.updateTable('worker_configurations')
        .set({ archived: 1 })
        .where('id', '=', configuration)
        .execute();
      await check(archived.id, {}, 'A worker run of this process uses an archived configuration.');

      const unavailable = await readyProcess();
      await t()
        .app.db.updateTable('worker_versions')
        .set({ state: 'created' })
        .where('id', '=', unavailable.version.versionId)
        .execute();
      await check(
        unavailable.id,
        {},
        'A worker run of this process uses a worker version that is not available.',
      );

      const empty = await readyProcess();
      await owner.patch(`process/${empty.id}/`, { element_name_contains: 'nothing like this' });
      await check(empty.id, {}, 'This process has no elements to run on.');

      const fine = await readyProcess();
      await check(fine.id, { chunks: 11 }, null);
      await check(fine.id, { chunks: 0 }, null);
      await check(fine.id, { chunks: 'two' }, null);
      await check(fine.id, { farm: 'nope' }, null);
      await check(fine.id, { farm: UNKNOWN_ID }, null);
      for (const [role, status] of [
        ['guest', 403],
        ['contributor', 403],
        ['outsider', 404],
      ] as const) {
        const response = await as(role).post(`process/${fine.id}/start/`, {});
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(status === 403 ? NOT_ADMIN : NOT_FOUND);
      }
      expect((await owner.post(`process/${UNKNOWN_ID}/start/`, {})).statusCode).toBe(404);
      expect(await tasksOf(owner, fine.id)).toEqual([]);

      const modelled = await readyProcess();
      const now = new Date().toISOString();
      const modelId = randomUUID();
      const modelVersionId = randomUUID();
      await t()
        .app.db.insertInto('models')
        .values({ id: modelId, name: 'Unfinished model', description: '', created: now })
        .execute();
      await t()
        .app.db.insertInto('model_versions')
        .values({
          id: modelVersionId,
          model_id: modelId,
          tag: null,
          hash: null,
          state: 'created',
          configuration: '{}',
          created: now,
        })
        .execute();
      await t()
        .app.db.updateTable('worker_runs')
        .set({ model_version_id: modelVersionId })
        .where('id', '=', modelled.run)
        .execute();
      await check(
        modelled.id,
        {},
        'A worker run of this process uses a model version that is not available.',
      );

      const template = await owner.post(`process/${fine.id}/template/`);
      await check(template.json().id, {}, 'Only a workers or dataset process can be started.');
    });
  });

  describe('stop, retry and delete', () => {
    it('stops the latest run: running tasks to stopping, waiting ones to stopped', async () => {
      const owner = as('owner');
      const process = await readyProcess();
      await addRun(owner, process.id, (await makeVersion(t().app)).versionId, [process.run]);
      await owner.post(`process/${process.id}/start/`, {});
      const [first] = await tasksOf(owner, process.id);
      await setTaskStates(t().app, process.id, 'running', [first!.id]);
      expect((await owner.get(`process/${process.id}/`)).json().state).toBe('running');
      expect(
        (await as('contributor').patch(`process/${process.id}/`, { state: 'stopping' })).statusCode,
      ).toBe(403);
      expect((await owner.patch(`process/${process.id}/`, { state: 'stopped' })).statusCode).toBe(
        400,
      );
      const stopped = await owner.patch(`process/${process.id}/`, { state: 'stopping' });
      expect(stopped.statusCode).toBe(200);
      expect(stopped.json().state).toBe('stopping');
      expect(stopped.json().tasks.map((task: { state: string }) => task.state)).toEqual([
        'stopping',
        'stopped',
      ]);
      const deleting = await owner.delete(`process/${process.id}/`);
      expect(deleting.statusCode).toBe(400);
      expect(deleting.json()).toEqual(
        refusal('A process can only be deleted when it is not running.'),
      );
      expect(
        (await owner.patch(`process/${process.id}/`, { load_children: 'none' })).json(),
      ).toEqual(refusal('The element filters cannot be changed once the process has started.'));
    });

    it('retries a finished run as a new run, keeping processed elements processed', async () => {
      const owner = as('owner');
      const process = await readyProcess();
      await owner.post(`process/${process.id}/start/`, {});
      const early = await owner.post(`process/${process.id}/retry/`);
      expect(early.statusCode).toBe(400);
      expect(early.json()).toEqual(
        refusal('A process can only be retried once its latest run is finished.'),
      );
      await t()
        .app.db.updateTable('worker_activities')
        .set({ state: 'processed' })
        .where('worker_run_id', '=', process.run)
        .where('element_id', '=', ids['Page 1']!)
        .execute();
      await t()
        .app.db.updateTable('worker_activities')
        .set({ state: 'error' })
        .where('worker_run_id', '=', process.run)
        .where('element_id', '=', ids['Page 2']!)
        .execute();
      await setTaskStates(t().app, process.id, 'failed');
      const before = (await owner.get(`process/${process.id}/`)).json();
      expect(before.state).toBe('failed');
      expect(before.finished).not.toBeNull();

      const retried = await owner.post(`process/${process.id}/retry/`);
      expect(retried.statusCode, retried.body).toBe(201);
      const body = retried.json();
      expect(body.state).toBe('pending');
      expect(body.finished).toBeNull();
      expect(body.started >= before.started).toBe(true);
      expect(
        body.tasks.map((task: { run: number; state: string }) => [task.run, task.state]),
      ).toEqual([
        [0, 'failed'],
        [1, 'pending'],
      ]);
      expect(
        await as('owner')
          .get(`process/${process.id}/activity-stats/`)
          .then((r) => r.json()),
      ).toEqual({
        queued: 4,
        started: 0,
        processed: 1,
        error: 0,
      });
      expect((await as('contributor').post(`process/${process.id}/retry/`)).statusCode).toBe(403);
    });

    it('refuses to retry a process that never started or imports files', async () => {
      const owner = as('owner');
      const process = await readyProcess();
      expect((await owner.post(`process/${process.id}/retry/`)).json()).toEqual(
        refusal('This process has not been started yet.'),
      );
      const filesId = randomUUID();
      const now = new Date().toISOString();
      await t()
        .app.db.insertInto('processes')
        .values({
          id: filesId,
          corpus_id: privateId,
          name: 'Import',
          mode: 'files',
          state: 'failed',
          creator_id: actors.owner.id,
          created: now,
          started: now,
          finished: now,
          updated: now,
        })
        .execute();
      const files = await owner.post(`process/${filesId}/retry/`);
      expect(files.statusCode).toBe(400);
      expect(files.json()).toEqual(
        refusal('A files process cannot be retried: import the files again instead.'),
      );
    });

    it('deletes a process without tasks at once, and one with tasks through a job', async () => {
      const owner = as('owner');
      const bare = await createProcess(owner, privateId);
      expect((await as('contributor').delete(`process/${bare.id}/`)).statusCode).toBe(403);
      expect((await as('outsider').delete(`process/${bare.id}/`)).statusCode).toBe(404);
      const gone = await owner.delete(`process/${bare.id}/`);
      expect(gone.statusCode).toBe(204);
      expect((await owner.get(`process/${bare.id}/`)).statusCode).toBe(404);

      const process = await readyProcess();
      await owner.post(`process/${process.id}/start/`, {});
      const lineId = ids['Line 1a']!;
      const transcriptionId = randomUUID();
      await t()
        .app.db.insertInto('transcriptions')
        .values({
          id: transcriptionId,
          element_id: lineId,
          text: 'kept',
          confidence: 1,
          orientation: 'horizontal-lr',
          worker_run_id: process.run,
          creator_id: null,
          created: new Date().toISOString(),
          updated: new Date().toISOString(),
        })
        .execute();
      await setTaskStates(t().app, process.id, 'completed');
      const scheduled = await owner.delete(`process/${process.id}/`);
      expect(scheduled.statusCode).toBe(202);
      expect(scheduled.body).toBe('');
      const job = await t()
        .app.db.selectFrom('jobs')
        .selectAll()
        .where('kind', '=', 'process_deletion')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(job.payload)).toEqual({ processId: process.id });
      expect((await owner.get(`process/${process.id}/`)).statusCode).toBe(200);

      await jobDefinition('process_deletion')!.handler({
        app: t().app,
        job,
        payload: { processId: process.id },
        progress: async () => {},
        shouldStop: async () => false,
        resumed: null,
        checkpoint: async () => {},
      });
      expect((await owner.get(`process/${process.id}/`)).statusCode).toBe(404);
      const tasks = await t()
        .app.db.selectFrom('tasks')
        .select('id')
        .where('process_id', '=', process.id)
        .execute();
      expect(tasks).toEqual([]);
      const transcription = await t()
        .app.db.selectFrom('transcriptions')
        .select(['text', 'worker_run_id'])
        .where('id', '=', transcriptionId)
        .executeTakeFirstOrThrow();
      expect(transcription).toEqual({ text: 'kept', worker_run_id: null });
    });
  });

  describe('task tokens', () => {
    it('read the processes of their own project only', async () => {
      const process = await readyProcess('Tokened');
      await as('owner').post(`process/${process.id}/start/`, {});
      const publicProcess = await createProcess(as('owner'), publicId);
      const { token, hash } = newToken();
      await t()
        .app.db.updateTable('tasks')
        .set({ state: 'running', token_hash: hash })
        .where('process_id', '=', process.id)
        .execute();
      const headers = { authorization: `Ponos ${token}` };
      const get = (url: string) =>
        t().app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });
      const own = await get(`process/${process.id}/`);
      expect(own.statusCode).toBe(200);
      expect(own.json().name).toBe('Tokened');
      expect((await get(`process/workers/${process.run}/`)).statusCode).toBe(200);
      expect((await get(`process/${publicProcess.id}/`)).statusCode).toBe(404);
      const listed = (await get('process/?page_size=500')).json() as {
        results: { corpus: string }[];
      };
      expect(listed.results.length).toBeGreaterThan(0);
      expect(listed.results.every((item) => item.corpus === privateId)).toBe(true);
      await setTaskStates(t().app, process.id, 'completed');
      expect((await get(`process/${process.id}/`)).statusCode).toBe(401);
    });
  });
});
