import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { NOT_FOUND, UNKNOWN_ID } from '../expectedErrors';
import { makeWorkerRun } from '../workerRunFixtures';
import { importWorkerRun } from '../../../server/services/workerRuns';

describeEachDialect('a project’s worker versions', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let used: { workerVersionId: string }[];
  let elsewhere: { workerVersionId: string };
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    used = [
      await makeWorkerRun(t().app, privateId, { workerName: 'Alpha' }),
      await makeWorkerRun(t().app, privateId, { workerName: 'Beta', version: 4, revision: null }),
    ];
    elsewhere = await makeWorkerRun(t().app, publicId, { workerName: 'Gamma' });
  });

  describe('GET /corpus/{id}/versions/', () => {
    it.each(['guest', 'contributor', 'owner', 'siteAdmin'] as const)(
      'lists the versions the project’s processes ran, for a %s',
      async (role) => {
        const response = await as(role).get(`corpus/${privateId}/versions/`);
        expect(response.statusCode).toBe(200);
        const page = response.json();
        expect(page.count).toBe(2);
        expect(page.results.map((v: { id: string }) => v.id).sort()).toEqual(
          used.map((run) => run.workerVersionId).sort(),
        );
        const beta = page.results.find(
          (v: { worker: { name: string } }) => v.worker.name === 'Beta',
        );
        expect(beta).toMatchObject({ version: 4, revision_url: null, state: 'available' });
        expect(page.results.map((v: { id: string }) => v.id)).not.toContain(
          elsewhere.workerVersionId,
        );
      },
    );

    it('includes the file import worker once a project has imports, its type listed', async () => {
      const corpusId = (await as('owner').post('corpus/', { name: 'Imported' })).json()
        .id as string;
      const runId = await importWorkerRun(t().app.db, corpusId);
      expect(await importWorkerRun(t().app.db, corpusId)).toBe(runId);
      const response = await as('owner').get(`corpus/${corpusId}/versions/`);
      expect(response.json().results).toEqual([
        expect.objectContaining({
          version: 1,
          worker: expect.objectContaining({ name: 'File import' }),
        }),
      ]);
      const types = (await as('owner').get('workers/types/?page_size=100')).json().results;
      expect(types.map((type: { slug: string }) => type.slug)).toContain('import');
    });

    it('pages the list', async () => {
      const response = await as('guest').get(`corpus/${privateId}/versions/?page_size=1&page=2`);
      expect(response.json()).toMatchObject({ count: 2, number: 2, next: null });
      expect(response.json().results).toHaveLength(1);
    });

    it('answers public projects to anyone, private ones to their readers only', async () => {
      const open = await as('anonymous').get(`corpus/${publicId}/versions/`);
      expect(open.statusCode).toBe(200);
      expect(open.json().results.map((v: { id: string }) => v.id)).toEqual([
        elsewhere.workerVersionId,
      ]);
      for (const role of ['anonymous', 'outsider'] as const) {
        const response = await as(role).get(`corpus/${privateId}/versions/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it('answers 404 to unknown and malformed project ids', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        expect((await as('siteAdmin').get(`corpus/${id}/versions/`)).statusCode).toBe(404);
      }
    });
  });
});
