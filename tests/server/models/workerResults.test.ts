import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from '../actors';
import {
  NOT_ADMIN,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  invalidPk,
  validation,
} from '../expectedErrors';
import { insertElements } from '../elementsFixtures';
import { makeWorkerRun } from '../workerRunFixtures';

const NOT_VERIFIED = denied('You must verify your email address to perform this action.');

/** Where results are: element name → worker run (or null, a person) of each kind of result. */
type Producer = 'a' | 'b' | 'c' | null;

interface Seed {
  corpusId: string;
  elements: Record<string, string>;
  runs: { a: string; b: string; c: string };
  /** A's model version and configuration; B and C have neither. */
  modelVersionA: string;
  configurationA: string;
  workerVersionB: string;
}

describeEachDialect('DELETE /corpus/{id}/worker-results/', ({ t }) => {
  let actors: Actors;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    actors = await makeActors(t().app);
  });

  /**
   * A project: Folder > Page 1 > (Line A made by run A, Line B made by run B) and
   * Folder 2 > Page 2; each page holds a transcription, classification and metadata from runs
   * A, B and C and from a person, and Page 1's manual transcription an entity found by run A.
   */
  async function seed(): Promise<Seed> {
    const app = t().app;
    const corpusId = await makeCorpus(app, actors, { name: `Results ${randomUUID().slice(0, 6)}` });
    const a = await makeWorkerRun(app, corpusId, {
      modelName: `M ${randomUUID()}`,
      configurationName: 'cfg',
    });
    const b = await makeWorkerRun(app, corpusId, { workerName: 'B' });
    const c = await makeWorkerRun(app, corpusId, { workerName: 'C' });
    const runA = await app.db
      .selectFrom('worker_runs')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    const elements = await insertElements(app, corpusId, [
      { name: 'Folder', type: 'folder' },
      { name: 'Page 1', type: 'page', parent: 'Folder' },
      { name: 'Line A', type: 'text_line', parent: 'Page 1', workerRunId: a.id },
      { name: 'Line B', type: 'text_line', parent: 'Page 1', workerRunId: b.id },
      { name: 'Folder 2', type: 'folder' },
      { name: 'Page 2', type: 'page', parent: 'Folder 2' },
    ]);
    const now = new Date().toISOString();
    const mlClass = randomUUID();
    await app.db
      .insertInto('ml_classes')
      .values({ id: mlClass, corpus_id: corpusId, name: 'cat' })
      .execute();
    const entityType = randomUUID();
    await app.db
      .insertInto('entity_types')
      .values({ id: entityType, corpus_id: corpusId, name: 'person', color: 'ff0000' })
      .execute();
    for (const page of ['Page 1', 'Page 2']) {
      for (const producer of [a.id, b.id, c.id, null]) {
        const common = {
          element_id: elements[page]!,
          worker_run_id: producer,
          creator_id: null,
          created: now,
          updated: now,
        };
        const transcription = randomUUID();
        await app.db
          .insertInto('transcriptions')
          .values({
            id: transcription,
            text: 'text',
            orientation: 'horizontal-lr',
            confidence: null,
            ...common,
          })
          .execute();
        await app.db
          .insertInto('classifications')
          .values({
            id: randomUUID(),
            ml_class_id: mlClass,
            state: 'pending',
            confidence: 0.5,
            high_confidence: 0,
            moderator_id: null,
            ...common,
          })
          .execute();
        await app.db
          .insertInto('metadata')
          .values({
            id: randomUUID(),
            type: 'text',
            name: 'm',
            value: 'v',
            numeric_value: null,
            ...common,
          })
          .execute();
        if (producer === null && page === 'Page 1') {
          await app.db
            .insertInto('transcription_entities')
            .values({
              id: randomUUID(),
              transcription_id: transcription,
              type_id: entityType,
              offset: 0,
              length: 4,
              confidence: null,
              worker_run_id: a.id,
            })
            .execute();
        }
      }
    }
    return {
      corpusId,
      elements,
      runs: { a: a.id, b: b.id, c: c.id },
      modelVersionA: a.modelVersionId!,
      configurationA: runA.configuration_id!,
      workerVersionB: b.workerVersionId,
    };
  }

  /** What is left in the project: "<kind> <element> <producer>" lines, sorted. */
  async function remaining(s: Seed): Promise<string[]> {
    const db = t().app.db;
    const producerOf = (runId: string | null): Producer =>
      runId === s.runs.a ? 'a' : runId === s.runs.b ? 'b' : runId === s.runs.c ? 'c' : null;
    const nameOf = Object.fromEntries(Object.entries(s.elements).map(([name, id]) => [id, name]));
    const lines: string[] = [];
    const ids = Object.values(s.elements);
    for (const table of ['transcriptions', 'classifications', 'metadata'] as const) {
      const rows = await db
        .selectFrom(table)
        .select(['element_id', 'worker_run_id'])
        .where('element_id', 'in', ids)
        .execute();
      for (const row of rows)
        lines.push(`${table} ${nameOf[row.element_id]} ${producerOf(row.worker_run_id)}`);
    }
    const entities = await db
      .selectFrom('transcription_entities')
      .innerJoin('transcriptions', 'transcriptions.id', 'transcription_entities.transcription_id')
      .select(['transcriptions.element_id', 'transcription_entities.worker_run_id'])
      .where('transcriptions.element_id', 'in', ids)
      .execute();
    for (const row of entities)
      lines.push(`entity ${nameOf[row.element_id]} ${producerOf(row.worker_run_id)}`);
    const elements = await db
      .selectFrom('elements')
      .select('name')
      .where('corpus_id', '=', s.corpusId)
      .execute();
    for (const row of elements) lines.push(`element ${row.name}`);
    return lines.sort();
  }

  /** Every result line of the seed, minus those matching `gone`. */
  function expected(gone: (kind: string, element: string, producer: string) => boolean): string[] {
    const lines: string[] = [];
    for (const page of ['Page 1', 'Page 2']) {
      for (const producer of ['a', 'b', 'c', 'null']) {
        for (const kind of ['transcriptions', 'classifications', 'metadata']) {
          if (!gone(kind, page, producer)) lines.push(`${kind} ${page} ${producer}`);
        }
      }
    }
    if (!gone('entity', 'Page 1', 'a')) lines.push('entity Page 1 a');
    for (const [name, producer] of [
      ['Folder', 'null'],
      ['Page 1', 'null'],
      ['Line A', 'a'],
      ['Line B', 'b'],
      ['Folder 2', 'null'],
      ['Page 2', 'null'],
    ] as const) {
      if (!gone('element', name, producer)) lines.push(`element ${name}`);
    }
    return lines.sort();
  }

  async function destroy(s: Seed, query = '', role: Role = 'owner') {
    const response = await as(role).delete(`corpus/${s.corpusId}/worker-results/${query}`);
    await t().app.jobs.drain();
    return response;
  }

  it('deletes every worker result of the project as a job, keeping what people made', async () => {
    const s = await seed();
    const response = await destroy(s);
    expect(response.statusCode).toBe(204);
    expect(await remaining(s)).toEqual(
      expected((_kind, _element, producer) => producer !== 'null'),
    );
    const jobs = (await as('owner').get('jobs/')).json();
    expect(jobs[0]).toMatchObject({
      status: 'processed',
      description: expect.stringContaining('Deleting worker results'),
    });
    const detail = (await as('owner').get(`jobs/${jobs[0].id}/`)).json();
    expect(detail.result).toEqual({
      transcriptions: 6,
      classifications: 6,
      metadata: 6,
      transcription_entities: 1,
      elements: 2,
    });
  });

  it('filters by worker run', async () => {
    const s = await seed();
    expect((await destroy(s, `?worker_run_id=${s.runs.b}`)).statusCode).toBe(204);
    expect(await remaining(s)).toEqual(expected((_k, _e, producer) => producer === 'b'));
  });

  it('filters by worker version', async () => {
    const s = await seed();
    expect((await destroy(s, `?worker_version_id=${s.workerVersionB}`)).statusCode).toBe(204);
    expect(await remaining(s)).toEqual(expected((_k, _e, producer) => producer === 'b'));
  });

  it('filters by model version', async () => {
    const s = await seed();
    expect((await destroy(s, `?model_version_id=${s.modelVersionA}`)).statusCode).toBe(204);
    expect(await remaining(s)).toEqual(expected((_k, _e, producer) => producer === 'a'));
  });

  it('filters by configuration, or by its absence with false', async () => {
    const s = await seed();
    expect((await destroy(s, `?configuration_id=${s.configurationA}`)).statusCode).toBe(204);
    expect(await remaining(s)).toEqual(expected((_k, _e, producer) => producer === 'a'));
    const other = await seed();
    expect((await destroy(other, '?configuration_id=false')).statusCode).toBe(204);
    expect(await remaining(other)).toEqual(
      expected((_k, _e, producer) => producer === 'b' || producer === 'c'),
    );
  });

  it('combines filters', async () => {
    const s = await seed();
    const response = await destroy(s, `?worker_run_id=${s.runs.a}&configuration_id=false`);
    expect(response.statusCode).toBe(204);
    expect(await remaining(s)).toEqual(expected(() => false));
  });

  it('stays within an element and its descendants', async () => {
    const s = await seed();
    expect((await destroy(s, `?element_id=${s.elements['Folder 2']}`)).statusCode).toBe(204);
    expect(await remaining(s)).toEqual(
      expected((_k, element, producer) => element === 'Page 2' && producer !== 'null'),
    );
    const other = await seed();
    const line = await destroy(
      other,
      `?element_id=${other.elements['Line A']}&worker_run_id=${other.runs.a}`,
    );
    expect(line.statusCode).toBe(204);
    expect(await remaining(other)).toEqual(
      expected((kind, element) => kind === 'element' && element === 'Line A'),
    );
  });

  it('stays within the selected elements with use_selection', async () => {
    const s = await seed();
    const selected = await as('owner').post('elements/selection/', { ids: [s.elements['Page 1']] });
    expect(selected.statusCode).toBeLessThan(300);
    expect((await destroy(s, `?use_selection=true&worker_run_id=${s.runs.a}`)).statusCode).toBe(
      204,
    );
    expect(await remaining(s)).toEqual(
      expected(
        (_k, element, producer) =>
          (element === 'Page 1' || element === 'Line A') && producer === 'a',
      ),
    );
    await as('owner').delete('elements/selection/');
  });

  describe('refusals', () => {
    let s: Seed;
    let before: string[];

    beforeAll(async () => {
      s = await seed();
      before = await remaining(s);
    });

    it('lets only project admins (and site admins) delete', async () => {
      const cases: [Role, number, object][] = [
        ['anonymous', 401, NOT_AUTHENTICATED],
        ['guest', 403, NOT_ADMIN],
        ['contributor', 403, NOT_ADMIN],
        ['outsider', 404, NOT_FOUND],
        ['unverifiedAdmin', 403, NOT_VERIFIED],
      ];
      for (const [role, status, body] of cases) {
        const response = await destroy(s, '', role);
        expect([role, response.statusCode, response.json()]).toEqual([role, status, body]);
      }
      expect(await remaining(s)).toEqual(before);
      const unknown = await as('owner').delete(`corpus/${UNKNOWN_ID}/worker-results/`);
      expect([unknown.statusCode, unknown.json()]).toEqual([404, NOT_FOUND]);
      const bySiteAdmin = await destroy(s, `?worker_run_id=${s.runs.c}`, 'siteAdmin');
      expect(bySiteAdmin.statusCode).toBe(204);
      before = await remaining(s);
      expect(before).toEqual(expected((_k, _e, producer) => producer === 'c'));
    });

    it('refuses malformed and unknown ids, changing nothing', async () => {
      const cases: [string, object][] = [
        ['?worker_run_id=nope', validation('worker_run_id', 'Must be a valid UUID.')],
        ['?worker_version_id=12', validation('worker_version_id', 'Must be a valid UUID.')],
        ['?model_version_id=x', validation('model_version_id', 'Must be a valid UUID.')],
        [
          '?configuration_id=true',
          validation('configuration_id', 'Must be a valid UUID or false.'),
        ],
        ['?element_id=nope', validation('element_id', 'Must be a valid UUID.')],
        [`?worker_run_id=${UNKNOWN_ID}`, invalidPk('worker_run_id', UNKNOWN_ID)],
        [`?worker_version_id=${UNKNOWN_ID}`, invalidPk('worker_version_id', UNKNOWN_ID)],
        [`?model_version_id=${UNKNOWN_ID}`, invalidPk('model_version_id', UNKNOWN_ID)],
        [`?configuration_id=${UNKNOWN_ID}`, invalidPk('configuration_id', UNKNOWN_ID)],
        [`?element_id=${UNKNOWN_ID}`, invalidPk('element_id', UNKNOWN_ID)],
        [
          `?element_id=${s.elements['Page 1']}&use_selection=true`,
          validation(
            'non_field_errors',
            'Results are deleted either under one element or under the selection, not both.',
          ),
        ],
        [
          '?use_selection=true',
          validation('use_selection', 'No element of this project is selected.', 'empty'),
        ],
        [
          '?use_selection=perhaps',
          validation('use_selection', '"perhaps" is not a valid choice.', 'invalid_choice'),
        ],
      ];
      for (const [query, error] of cases) {
        const response = await destroy(s, query);
        expect([query, response.statusCode, response.json()]).toEqual([query, 400, error]);
      }
      // An element of another project is not one of this project's.
      const otherProject = await seed();
      const foreign = otherProject.elements['Page 1']!;
      const response = await destroy(s, `?element_id=${foreign}`);
      expect([response.statusCode, response.json()]).toEqual([
        400,
        invalidPk('element_id', foreign),
      ]);
      expect(await remaining(s)).toEqual(before);
    });
  });
});

describeEachDialect(
  'DELETE /corpus/{id}/worker-results/ without the selection feature',
  ({ t }) => {
    it('refuses use_selection, changing nothing', async () => {
      const actors = await makeActors(t().app);
      const corpusId = await makeCorpus(t().app, actors, { name: 'No selection' });
      const run = await makeWorkerRun(t().app, corpusId);
      await insertElements(t().app, corpusId, [
        { name: 'Worker page', type: 'page', workerRunId: run.id },
      ]);
      const owner = clientFor(t().app, actors, 'owner');
      const response = await owner.delete(`corpus/${corpusId}/worker-results/?use_selection=true`);
      expect([response.statusCode, response.json()]).toEqual([
        400,
        validation('use_selection', 'The selection feature is disabled on this server.'),
      ]);
      await t().app.jobs.drain();
      const left = await t().app.db.selectFrom('elements').select('name').execute();
      expect(left.map((row) => row.name)).toEqual(['Worker page']);
    });
  },
  { FOLIA_FEATURES: 'search' },
);
