import { randomUUID } from 'node:crypto';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { elementRowsByIds } from '../../server/services/elements/repository';
import { serializeElements } from '../../server/services/elements/serialize';
import { DEFAULT_SERIALIZE } from '../../server/services/elements/listOptions';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
import { NOT_FOUND, UNKNOWN_ID, UUID } from './expectedErrors';
import { insertElements } from './elementsFixtures';
import { makeWorkerRun } from './workerRunFixtures';

const NOW = '2024-05-01T10:00:00.000Z';

/** Records every query a Kysely handle sends, to count those reading a table. */
class QueryLog implements KyselyPlugin {
  readonly queries: string[] = [];
  transformQuery(args: PluginTransformQueryArgs) {
    this.queries.push(JSON.stringify(args.node));
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
  reading(table: string): number {
    return this.queries.filter((query) => query.includes(`"name":"${table}"`)).length;
  }
}

async function classify(app: FastifyInstance, corpusId: string, elementId: string, runId: string) {
  const classId = randomUUID();
  await app.db
    .insertInto('ml_classes')
    .values({ id: classId, corpus_id: corpusId, name: `class ${classId.slice(0, 8)}` })
    .execute();
  await app.db
    .insertInto('classifications')
    .values({
      id: randomUUID(),
      element_id: elementId,
      ml_class_id: classId,
      state: 'pending',
      confidence: 0.5,
      high_confidence: 0,
      worker_run_id: runId,
      creator_id: null,
      moderator_id: null,
      created: NOW,
      updated: NOW,
    })
    .execute();
}

async function addMetadata(app: FastifyInstance, elementId: string, runId: string) {
  await app.db
    .insertInto('metadata')
    .values({
      id: randomUUID(),
      element_id: elementId,
      type: 'text',
      name: 'folio',
      value: '12r',
      numeric_value: null,
      worker_run_id: runId,
      creator_id: null,
      created: NOW,
      updated: NOW,
    })
    .execute();
}

describeEachDialect('worker runs', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    actors = await makeActors(t().app);
    privateId = await makeCorpus(t().app, actors, { name: 'Runs' });
    publicId = await makeCorpus(t().app, actors, { name: 'Open runs', public: true });
  });

  describe('GET /process/workers/{id}/', () => {
    it('answers the worker run with its version, worker, model, configuration and process', async () => {
      const run = await makeWorkerRun(t().app, privateId, {
        modelName: 'Ner',
        configurationName: 'Fast',
      });
      const response = await as('guest').get(`process/workers/${run.id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: run.id,
        parents: [],
        worker_version: {
          id: run.workerVersionId,
          worker: {
            id: expect.stringMatching(UUID),
            name: 'Fake worker',
            slug: expect.stringMatching(/^fake_worker_/),
            type: 'recognizer',
            description: '',
            repository_url: 'https://gitlab.example.org/workers/fake',
          },
          revision: { hash: '123412deadbeef' },
          version: null,
          configuration: { configuration: {}, user_configuration: {} },
          state: 'available',
          created: expect.any(String),
        },
        configuration: {
          id: expect.stringMatching(UUID),
          name: 'Fast',
          configuration: { batch: 8 },
          archived: false,
        },
        model_version: {
          id: run.modelVersionId,
          model: { id: expect.stringMatching(UUID), name: 'Ner' },
          tag: 'v1',
          hash: 'cafe',
          state: 'available',
          configuration: {},
          created: expect.any(String),
        },
        process: {
          id: expect.stringMatching(UUID),
          corpus: privateId,
          name: 'Recognition',
          mode: 'workers',
          state: 'completed',
          created: expect.any(String),
        },
        created: expect.any(String),
        summary: `Worker Fake worker @ 123412 with model Ner @ ${run.modelVersionId!.slice(0, 6)} using configuration 'Fast'`,
      });
    });

    it('says "No model" and "No configuration" with nulls, and names a version by number', async () => {
      const run = await makeWorkerRun(t().app, privateId, { revision: null, version: 3 });
      const body = (await as('contributor').get(`process/workers/${run.id}/`)).json();
      expect(body).toMatchObject({
        model_version: null,
        configuration: null,
        worker_version: { revision: null, version: 3 },
        summary: 'Worker Fake worker @ 3',
      });
    });

    it('shows the runs of a public project to anyone, anonymous included', async () => {
      const run = await makeWorkerRun(t().app, publicId);
      for (const role of ['anonymous', 'outsider', 'guest', 'siteAdmin'] as const) {
        const response = await as(role).get(`process/workers/${run.id}/`);
        expect(response.statusCode).toBe(200);
        expect(response.json().process.corpus).toBe(publicId);
      }
    });

    it('answers 404 for runs of unreadable projects, unknown and malformed ids', async () => {
      const run = await makeWorkerRun(t().app, privateId);
      expect((await as('siteAdmin').get(`process/workers/${run.id}/`)).statusCode).toBe(200);
      expect((await as('guest').get(`process/workers/${run.id.toUpperCase()}/`)).statusCode).toBe(
        200,
      );
      for (const [role, id] of [
        ['outsider', run.id],
        ['anonymous', run.id],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'not-a-uuid'],
      ] as const) {
        const response = await as(role).get(`process/workers/${id}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('worker_run on elements and their results', () => {
    let corpusId: string;
    let runs: Awaited<ReturnType<typeof makeWorkerRun>>[];
    let ids: Record<string, string>;
    const summary = (run: { id: string }) => ({
      id: run.id,
      summary: 'Worker Fake worker @ 123412',
    });

    beforeAll(async () => {
      const { app } = t();
      corpusId = await makeCorpus(app, actors, { name: 'Results' });
      runs = [];
      for (let i = 0; i < 6; i += 1) runs.push(await makeWorkerRun(app, corpusId));
      ids = await insertElements(app, corpusId, [
        { name: 'page 1', type: 'page', workerRunId: runs[0]!.id },
        { name: 'page 2', type: 'page', workerRunId: runs[1]!.id },
        { name: 'page 3', type: 'page', workerRunId: runs[2]!.id },
        { name: 'page 4', type: 'page' },
      ]);
      for (const name of ['page 1', 'page 2', 'page 3', 'page 4']) {
        await classify(app, corpusId, ids[name]!, runs[3]!.id);
        await addMetadata(app, ids[name]!, runs[4]!.id);
      }
    });

    it('shows the summary of the run that made an element, its classes and metadata', async () => {
      const response = await as('guest').get(
        `corpus/${corpusId}/elements/?with_classes=true&with_metadata=true`,
      );
      expect(response.statusCode).toBe(200);
      const results = response.json().results as {
        name: string;
        worker_run: unknown;
        classes: { worker_run: unknown }[];
        metadata: { worker_run: unknown }[];
      }[];
      expect(results.map((element) => [element.name, element.worker_run])).toEqual([
        ['page 1', summary(runs[0]!)],
        ['page 2', summary(runs[1]!)],
        ['page 3', summary(runs[2]!)],
        ['page 4', null],
      ]);
      for (const element of results) {
        expect(element.classes.map((c) => c.worker_run)).toEqual([summary(runs[3]!)]);
        expect(element.metadata.map((m) => m.worker_run)).toEqual([summary(runs[4]!)]);
      }

      const one = (await as('guest').get(`element/${ids['page 2']}/`)).json();
      expect(one.worker_run).toEqual(summary(runs[1]!));
      expect(one.classifications.map((c: { worker_run: unknown }) => c.worker_run)).toEqual([
        summary(runs[3]!),
      ]);
    });

    it('reads the summaries of a whole page in one query', async () => {
      const log = new QueryLog();
      const db = t().app.db.withPlugin(log);
      const rows = await elementRowsByIds(db, Object.values(ids));
      const before = log.reading('worker_runs');
      const json = await serializeElements(db, rows, 'http://localhost', {
        ...DEFAULT_SERIALIZE,
        classes: true,
        metadata: true,
      });
      expect(log.reading('worker_runs') - before).toBe(1);
      expect(json.map((element) => element.worker_run?.summary ?? null)).toEqual([
        'Worker Fake worker @ 123412',
        'Worker Fake worker @ 123412',
        'Worker Fake worker @ 123412',
        null,
      ]);
    });

    it('keeps the id of a run no longer stored, with a summary naming it', async () => {
      const gone = randomUUID();
      const { Ghost } = await insertElements(t().app, corpusId, [
        { name: 'Ghost', type: 'page', workerRunId: gone },
      ]);
      const response = await as('guest').get(`element/${Ghost}/`);
      expect(response.json().worker_run).toEqual({
        id: gone,
        summary: `Worker run ${gone.slice(0, 6)}`,
      });
    });
  });
});
