/**
 * Element lists filtered by worker version: the results of every run of that version (in any
 * process), now that versions exist; unknown ids are still refused by name.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors } from '../actors';
import { UNKNOWN_ID, validation } from '../expectedErrors';
import { typeIds } from '../elementsFixtures';
import { makeWorkerRun } from '../workerRunFixtures';

const NOW = '2024-05-01T10:00:00.000Z';

async function insertElement(
  app: FastifyInstance,
  corpusId: string,
  name: string,
  workerRunId: string | null,
): Promise<string> {
  const types = await typeIds(app, corpusId);
  const id = randomUUID();
  await app.db
    .insertInto('elements')
    .values({
      id,
      corpus_id: corpusId,
      type_id: Object.values(types)[0]!,
      name,
      image_id: null,
      polygon: null,
      rotation_angle: 0,
      mirrored: 0,
      confidence: workerRunId ? 0.5 : null,
      creator_id: null,
      worker_run_id: workerRunId,
      created: NOW,
      updated: NOW,
      children_updated: null,
    })
    .execute();
  return id;
}

describeEachDialect('element lists by worker version', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let versionId: string;

  beforeAll(async () => {
    const setup = await makeActorsAndProjects(t().app);
    actors = setup.actors;
    corpusId = setup.privateId;
    const app = t().app;
    const first = await makeWorkerRun(app, corpusId, { workerName: 'Segmenter' });
    versionId = first.workerVersionId;
    // A second run of the same version, in another process, with a configuration.
    const configurationId = randomUUID();
    const version = await app.db
      .selectFrom('worker_versions')
      .select('worker_id')
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    await app.db
      .insertInto('worker_configurations')
      .values({
        id: configurationId,
        worker_id: version.worker_id,
        name: 'Other',
        configuration: '{}',
        archived: 0,
      })
      .execute();
    const secondRunId = randomUUID();
    await app.db
      .insertInto('worker_runs')
      .values({
        id: secondRunId,
        process_id: (
          await app.db
            .selectFrom('worker_runs')
            .select('process_id')
            .where('id', '=', first.id)
            .executeTakeFirstOrThrow()
        ).process_id,
        worker_version_id: versionId,
        model_version_id: null,
        configuration_id: configurationId,
        parents: '[]',
        created: NOW,
      })
      .execute();
    const other = await makeWorkerRun(app, corpusId, { workerName: 'Other worker' });

    await insertElement(app, corpusId, 'by first run', first.id);
    await insertElement(app, corpusId, 'by second run', secondRunId);
    await insertElement(app, corpusId, 'by another worker', other.id);
    const manual = await insertElement(app, corpusId, 'by hand', null);
    await app.db
      .insertInto('transcriptions')
      .values({
        id: randomUUID(),
        element_id: manual,
        text: 'read by the segmenter',
        orientation: 'horizontal-lr',
        confidence: 0.8,
        worker_run_id: secondRunId,
        creator_id: null,
        created: NOW,
        updated: NOW,
      })
      .execute();
  });

  const names = async (query: string) => {
    const response = await clientFor(t().app, actors, 'guest').get(
      `corpus/${corpusId}/elements/?${query}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().results as { name: string }[]).map((e) => e.name).sort();
  };

  describe('GET /corpus/{id}/elements/', () => {
    it('keeps the results of every run of the version', async () => {
      expect(await names(`worker_version=${versionId}`)).toEqual(['by first run', 'by second run']);
      expect(await names(`transcription_worker_version=${versionId}`)).toEqual(['by hand']);
      expect(await names('worker_version=false')).toEqual(['by hand']);
    });

    it.each([
      ['worker_version', UNKNOWN_ID],
      ['worker_version', 'abc'],
      ['transcription_worker_version', UNKNOWN_ID],
    ])('refuses an unknown version in %s=%s', async (name, value) => {
      const response = await clientFor(t().app, actors, 'guest').get(
        `corpus/${corpusId}/elements/?${name}=${value}`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation(name, `Unknown worker version ID: '${value}'`));
    });
  });
});
