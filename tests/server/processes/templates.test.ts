import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { NOT_ADMIN, UNKNOWN_ID, invalidPk } from '../expectedErrors';
import { addRun, createProcess, makeTree, makeVersion, setTaskStates } from './fixtures';

const refusal = (detail: string) => ({
  type: 'client_error',
  errors: [{ code: 'invalid', detail, attr: null }],
});

interface RunJson {
  id: string;
  parents: string[];
  worker_version: { id: string };
  process: { id: string };
}

describeEachDialect('templates and failures', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    ids = await makeTree(t().app, privateId);
  });

  const runsOf = async (processId: string): Promise<RunJson[]> =>
    (await as('owner').get(`process/${processId}/workers/`)).json().results;

  async function twoRuns(name: string) {
    const owner = as('owner');
    const process = await createProcess(owner, privateId, {
      name,
      load_children: 'all',
      element_type: 'page',
    });
    const first = await makeVersion(t().app);
    const second = await makeVersion(t().app);
    const a = await addRun(owner, process.id, first.versionId);
    const b = await addRun(owner, process.id, second.versionId, [a]);
    return { id: process.id, a, b, first, second };
  }

  describe('templates', () => {
    it('copies a process’ runs into a template, and applies it to another process', async () => {
      const owner = as('owner');
      const source = await twoRuns('Source');
      const made = await owner.post(`process/${source.id}/template/`);
      expect(made.statusCode).toBe(201);
      const template = made.json();
      expect(template).toMatchObject({
        name: 'Template of Source',
        mode: 'template',
        corpus: privateId,
        state: 'unscheduled',
        tasks: [],
      });
      const copies = await runsOf(template.id);
      expect(copies.map((run) => run.worker_version.id)).toEqual([
        source.first.versionId,
        source.second.versionId,
      ]);
      expect(copies.map((run) => run.id)).not.toContain(source.a);
      expect(copies[1]!.parents).toEqual([copies[0]!.id]);
      const listed = await owner.get(`process/?corpus=${privateId}&mode=template`);
      expect(listed.json().results.map((p: { id: string }) => p.id)).toContain(template.id);

      const target = await createProcess(owner, privateId);
      await addRun(owner, target.id, (await makeVersion(t().app)).versionId);
      const applied = await owner.post(`process/${template.id}/apply/`, { process_id: target.id });
      expect(applied.statusCode, applied.body).toBe(201);
      expect(applied.json()).toMatchObject({ id: target.id, template_id: template.id });
      const replaced = await runsOf(target.id);
      expect(replaced.map((run) => run.worker_version.id)).toEqual([
        source.first.versionId,
        source.second.versionId,
      ]);
      expect(replaced[1]!.parents).toEqual([replaced[0]!.id]);
      expect(replaced.every((run) => run.process.id === target.id)).toBe(true);
    });

    it('refuses templates and applications it should not make', async () => {
      const owner = as('owner');
      const source = await twoRuns('Refused');
      expect((await as('contributor').post(`process/${source.id}/template/`)).json()).toEqual(
        NOT_ADMIN,
      );
      const template = (await owner.post(`process/${source.id}/template/`)).json();
      const notTemplate = await owner.post(`process/${source.id}/apply/`, {
        process_id: source.id,
      });
      expect(notTemplate.json()).toEqual(refusal('Only a template can be applied.'));
      expect(
        (await owner.post(`process/${template.id}/apply/`, { process_id: 'x' })).statusCode,
      ).toBe(400);
      expect(
        (await owner.post(`process/${template.id}/apply/`, { process_id: UNKNOWN_ID })).json(),
      ).toEqual(invalidPk('process_id', UNKNOWN_ID));
      // A contributor may read the template but not change the target.
      expect(
        (
          await as('contributor').post(`process/${template.id}/apply/`, { process_id: source.id })
        ).json(),
      ).toEqual(invalidPk('process_id', source.id));
      const other = await createProcess(owner, publicId);
      expect(
        (await owner.post(`process/${template.id}/apply/`, { process_id: other.id })).json(),
      ).toEqual(refusal('A template can only be applied to a process of the same project.'));
      const started = await owner.post(`process/${source.id}/start/`, {});
      expect(started.statusCode, started.body).toBe(201);
      expect(
        (await owner.post(`process/${template.id}/apply/`, { process_id: source.id })).json(),
      ).toEqual(
        refusal('A template cannot be applied to a process that has already been started.'),
      );
      expect((await runsOf(source.id)).map((run) => run.id)).toEqual([source.a, source.b]);
    });
  });

  describe('failures', () => {
    it('selects the failed elements, or makes a process of them with the same runs', async () => {
      const owner = as('owner');
      const source = await twoRuns('Failing');
      const none = await owner.post(`process/${source.id}/select-failures/`);
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual(refusal('No element failed in this process.'));
      expect((await owner.post(`process/${source.id}/process-failures/`)).statusCode).toBe(400);

      const started = await owner.post(`process/${source.id}/start/`, {});
      expect(started.statusCode, started.body).toBe(201);
      for (const [run, name] of [
        [source.a, 'Page 2'],
        [source.b, 'Page 4'],
        [source.b, 'Page 2'],
      ] as const) {
        await t()
          .app.db.updateTable('worker_activities')
          .set({ state: 'error' })
          .where('worker_run_id', '=', run)
          .where('element_id', '=', ids[name]!)
          .execute();
      }
      await setTaskStates(t().app, source.id, 'failed');
      expect((await owner.get(`process/${source.id}/activity-stats/`)).json()).toEqual({
        queued: 7,
        started: 0,
        processed: 0,
        error: 3,
      });

      await as('guest').delete('elements/selection/');
      const selected = await as('guest').post(`process/${source.id}/select-failures/`);
      expect(selected.statusCode).toBe(204);
      const selection = await as('guest').get('elements/selection/');
      expect(selection.json().results.map((e: { name: string }) => e.name)).toEqual([
        'Page 2',
        'Page 4',
      ]);
      expect((await as('outsider').post(`process/${source.id}/select-failures/`)).statusCode).toBe(
        404,
      );

      expect((await as('guest').post(`process/${source.id}/process-failures/`)).json()).toEqual(
        NOT_ADMIN,
      );
      const made = await owner.post(`process/${source.id}/process-failures/`);
      expect(made.statusCode).toBe(201);
      const failures = made.json();
      expect(failures).toMatchObject({
        name: 'Failures of Failing',
        mode: 'workers',
        state: 'unscheduled',
        selection_count: 2,
        tasks: [],
      });
      const elements = await owner.get(`process/${failures.id}/elements/`);
      expect(elements.json().results.map((e: { name: string }) => e.name)).toEqual([
        'Page 2',
        'Page 4',
      ]);
      const runs = await runsOf(failures.id);
      expect(runs.map((run) => run.worker_version.id)).toEqual([
        source.first.versionId,
        source.second.versionId,
      ]);
      expect(runs[1]!.parents).toEqual([runs[0]!.id]);
    });
  });
});

describeEachDialect(
  'select-failures without the selection feature',
  ({ t }) => {
    it('is refused', async () => {
      const { actors, privateId } = await makeActorsAndProjects(t().app);
      const process = await createProcess(clientFor(t().app, actors, 'owner'), privateId);
      const response = await clientFor(t().app, actors, 'owner').post(
        `process/${process.id}/select-failures/`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(refusal('The selection feature is disabled on this server.'));
    });
  },
  { FOLIA_FEATURES: 'search' },
);
