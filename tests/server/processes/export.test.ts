/**
 * CreateExportProcess (POST /process/export/{corpus_id}/): every refusal with the field it
 * concerns, and the process it makes: mode export, the chosen element or selection, one worker
 * run of the format's feature version holding the export and the options, one task, started.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import {
  NOT_ADMIN,
  NOT_FOUND,
  NOT_AUTHENTICATED,
  UNKNOWN_ID,
  invalidPk,
  validation,
} from '../expectedErrors';
import { makeTree } from './fixtures';
import { makeFarm } from '../tasks/fixtures';
import type { ExportState } from '../../../server/db/schema';

describeEachDialect('export processes', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let otherIds: Record<string, string>;
  const exports: Record<string, string> = {};
  const as = (role: Role) => clientFor(t().app, actors, role);
  const post = (body: unknown, role: Role = 'owner', corpusId = privateId) =>
    as(role).post(`process/export/${corpusId}/`, body);

  const insertExport = async (corpusId: string, state: ExportState, hoursAgo = 12) => {
    const id = randomUUID();
    const when = new Date(Date.now() - hoursAgo * 3600_000).toISOString();
    await t()
      .app.db.insertInto('corpus_exports')
      .values({
        id,
        corpus_id: corpusId,
        user_id: actors.owner.id,
        state,
        source: 'default',
        job_id: null,
        error: null,
        size: null,
        created: when,
        updated: when,
      })
      .execute();
    return id;
  };

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    ids = await makeTree(t().app, privateId);
    otherIds = await makeTree(t().app, publicId);
    exports.done = await insertExport(privateId, 'done');
    exports.failed = await insertExport(privateId, 'failed');
    exports.otherProject = await insertExport(publicId, 'done');
  });

  const valid = () => ({ format: 'pagexml', export_id: exports.done, element_id: ids['Volume A'] });

  describe('refusals', () => {
    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['guest', 403, NOT_ADMIN],
      ['contributor', 403, NOT_ADMIN],
      ['outsider', 404, NOT_FOUND],
    ] as const)('answers %s with %i', async (role, status, body) => {
      const response = await post(valid(), role);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toEqual(body);
    });

    it('answers 404 for an unknown project or a project id that is not a UUID', async () => {
      expect((await post(valid(), 'owner', UNKNOWN_ID)).statusCode).toBe(404);
      expect((await post(valid(), 'owner', 'not-a-uuid')).statusCode).toBe(404);
    });

    it('refuses a format that is unknown or whose feature flag is off', async () => {
      const unknown = await post({ ...valid(), format: 'tiff' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual(
        validation('format', '"tiff" is not a valid choice.', 'invalid_choice'),
      );
      const features = t().app.config.features;
      features.pdf_export = false;
      try {
        const off = await post({ ...valid(), format: 'pdf' });
        expect(off.statusCode).toBe(400);
        expect(off.json()).toEqual(
          validation('format', '"pdf" is not a valid choice.', 'invalid_choice'),
        );
      } finally {
        features.pdf_export = true;
      }
    });

    it('requires export_id, a readable export of this project that has not failed', async () => {
      const { export_id: _, ...missing } = valid();
      const response = await post(missing);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        validation('export_id', 'This field is required.', 'required'),
      );

      const unknown = await post({ ...valid(), export_id: UNKNOWN_ID });
      expect(unknown.json()).toEqual(invalidPk('export_id', UNKNOWN_ID));
      const other = await post({ ...valid(), export_id: exports.otherProject });
      expect(other.json()).toEqual(invalidPk('export_id', exports.otherProject!));
      const failed = await post({ ...valid(), export_id: exports.failed });
      expect(failed.statusCode).toBe(400);
      expect(failed.json()).toEqual(
        validation(
          'export_id',
          'This export has failed: choose another one or start a new export.',
        ),
      );
    });

    it('refuses ids that are not UUIDs', async () => {
      for (const field of ['export_id', 'element_id', 'farm_id']) {
        const response = await post({ ...valid(), [field]: 'nope' });
        expect(response.statusCode, field).toBe(400);
        expect(response.json()).toEqual(validation(field, 'Must be a valid UUID.'));
      }
    });

    it('refuses an element of another project', async () => {
      const response = await post({ ...valid(), element_id: otherIds['Volume A'] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPk('element_id', otherIds['Volume A']!));
    });

    it('refuses the selection with an element, and an empty selection', async () => {
      const both = await post({ ...valid(), selection: true });
      expect(both.statusCode).toBe(400);
      expect(both.json()).toEqual(
        validation('selection', 'An element and the selection cannot be exported together.'),
      );
      const { element_id: _, ...noElement } = valid();
      const empty = await post({ ...noElement, selection: true });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual(
        validation('selection', 'You have no selected elements in this project.'),
      );
    });

    it('refuses a configuration the worker does not take', async () => {
      const wrongType = await post({ ...valid(), format: 'csv', configuration: { fields: 'id' } });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json()).toEqual(
        validation('configuration', 'fields: Value must be a valid list of string.'),
      );
      const unknownKey = await post({ ...valid(), configuration: { dpi: 300 } });
      expect(unknownKey.json()).toEqual(validation('configuration', 'dpi: Unrecognised field'));
      const notObject = await post({ ...valid(), configuration: [1] });
      expect(notObject.statusCode).toBe(400);
      expect(notObject.json().errors[0].attr).toBe('configuration');
    });

    it('refuses an unknown farm', async () => {
      const response = await post({ ...valid(), farm_id: UNKNOWN_ID });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPk('farm_id', UNKNOWN_ID));
    });

    it('refuses a body that is not JSON', async () => {
      const response = await post('{"format": "pdf",');
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].code).toBe('parse_error');
    });

    it('made no process for any of these', async () => {
      const made = await t()
        .app.db.selectFrom('processes')
        .select('id')
        .where('mode', '=', 'export')
        .execute();
      expect(made).toEqual([]);
    });
  });

  describe('the process made', () => {
    const runOf = async (processId: string) => {
      const runs = await as('owner').get(`process/${processId}/workers/`);
      expect(runs.statusCode, runs.body).toBe(200);
      return runs.json().results as {
        id: string;
        worker_version: { id: string; worker: { slug: string } };
        configuration: { configuration: Record<string, unknown> } | null;
      }[];
    };
    const tasksOf = (processId: string) =>
      t()
        .app.db.selectFrom('tasks')
        .select(['slug', 'state', 'elements', 'worker_run_id'])
        .where('process_id', '=', processId)
        .execute();

    it('exports an element: mode export, started with one task on it, the export in the run', async () => {
      const farm = await makeFarm(t().app);
      const response = await post({
        format: 'csv',
        export_id: exports.done,
        element_id: ids['Volume A'],
        configuration: { fields: ['id', 'name', 'text'] },
        farm_id: farm.id,
      });
      expect(response.statusCode, response.body).toBe(201);
      const made = response.json();
      expect(made).toMatchObject({
        mode: 'export',
        corpus: privateId,
        element: { id: ids['Volume A'], name: 'Volume A' },
        farm: { id: farm.id },
        chunks: 1,
      });
      expect(made.started).not.toBeNull();

      const [run, ...more] = await runOf(made.id);
      expect(more).toEqual([]);
      expect(run!.worker_version.worker.slug).toBe('csv-export');
      const feature = await as('owner').get('workers/versions/feature/csv_export/');
      expect(run!.worker_version.id).toBe(feature.json().id);
      expect(run!.configuration?.configuration).toEqual({
        export_id: exports.done,
        fields: ['id', 'name', 'text'],
      });

      const tasks = await tasksOf(made.id);
      expect(tasks).toHaveLength(1);
      expect(tasks[0]).toMatchObject({
        slug: 'csv-export',
        state: 'pending',
        worker_run_id: run!.id,
      });
      expect(JSON.parse(tasks[0]!.elements)).toEqual([ids['Volume A']]);

      const listed = await as('owner').get(`process/${made.id}/elements/`);
      expect(listed.json().results.map((e: { name: string }) => e.name)).toEqual(['Volume A']);
    });

    it('the same options again reuse the stored configuration', async () => {
      const body = { format: 'pagexml', export_id: exports.done, element_id: ids['Page 1'] };
      const first = await runOf((await post(body)).json().id);
      const second = await runOf((await post(body)).json().id);
      expect(first[0]!.configuration).toEqual(second[0]!.configuration);
      expect(first[0]!.configuration?.configuration).toEqual({ export_id: exports.done });
      // Options left empty are dropped, so the worker reads their defaults.
      const empty = await post({ ...body, format: 'csv', configuration: { fields: [] } });
      expect(empty.statusCode, empty.body).toBe(201);
      const [run] = await runOf(empty.json().id);
      expect(run!.configuration?.configuration).toEqual({ export_id: exports.done });
    });

    it('exports the selection: its elements are the task’s', async () => {
      const owner = as('owner');
      await owner.post('elements/selection/', { ids: [ids['Page 2'], ids['Loose page']] });
      try {
        const response = await post({ format: 'alto', export_id: exports.done, selection: true });
        expect(response.statusCode, response.body).toBe(201);
        const [task] = await tasksOf(response.json().id);
        expect(JSON.parse(task!.elements).sort()).toEqual(
          [ids['Page 2'], ids['Loose page']].sort(),
        );
      } finally {
        await owner.delete('elements/selection/');
      }
    });

    it('with export_id null, starts a new SQLite export that the run reads', async () => {
      const project = (
        await t()
          .app.db.selectFrom('corpora')
          .select('id')
          .where('id', '=', publicId)
          .executeTakeFirstOrThrow()
      ).id;
      // The public project's only export is 12 hours old: a new one may start.
      const response = await post(
        { format: 'docx', export_id: null, element_id: otherIds['Volume A'] },
        'owner',
        project,
      );
      expect(response.statusCode, response.body).toBe(201);
      const [run] = await runOf(response.json().id);
      const exportId = run!.configuration?.configuration.export_id as string;
      expect(exportId).not.toBe(exports.otherProject);
      const row = await t()
        .app.db.selectFrom('corpus_exports')
        .select(['corpus_id', 'user_id'])
        .where('id', '=', exportId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ corpus_id: publicId, user_id: actors.owner.id });

      // A second one while it runs: the export rules answer on export_id.
      const again = await post(
        { format: 'docx', export_id: null, element_id: otherIds['Volume A'] },
        'owner',
        project,
      );
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(
        validation('export_id', 'An export is already running for this project.'),
      );
    });

    it('retries once its task is over: one new task on the same elements', async () => {
      const made = await post({
        format: 'pdf',
        export_id: exports.done,
        element_id: ids['Page 3'],
      });
      expect(made.statusCode, made.body).toBe(201);
      const processId = made.json().id as string;
      const early = await as('owner').post(`process/${processId}/retry/`);
      expect(early.statusCode).toBe(400);
      await t()
        .app.db.updateTable('tasks')
        .set({ state: 'failed' })
        .where('process_id', '=', processId)
        .execute();
      const retried = await as('owner').post(`process/${processId}/retry/`);
      expect(retried.statusCode, retried.body).toBe(201);
      const tasks = await t()
        .app.db.selectFrom('tasks')
        .select(['run', 'state', 'elements'])
        .where('process_id', '=', processId)
        .orderBy('run')
        .execute();
      expect(tasks.map((task) => [task.run, task.state])).toEqual([
        [0, 'failed'],
        [1, 'pending'],
      ]);
      expect(JSON.parse(tasks[1]!.elements)).toEqual([ids['Page 3']]);
      const activities = await t()
        .app.db.selectFrom('worker_activities')
        .innerJoin('worker_runs', 'worker_runs.id', 'worker_activities.worker_run_id')
        .select('worker_activities.id')
        .where('worker_runs.process_id', '=', processId)
        .execute();
      expect(activities).toEqual([]);
    });
  });
});
