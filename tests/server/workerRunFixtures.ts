/**
 * Worker runs for the suites whose results carry `worker_run`: a worker, a version, an optional
 * model version and configuration, and a process of the project, inserted directly.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export interface WorkerRunSpec {
  workerName?: string;
  revision?: string | null;
  version?: number | null;
  modelName?: string;
  configurationName?: string;
}

export async function makeWorkerRun(
  app: FastifyInstance,
  corpusId: string,
  spec: WorkerRunSpec = {},
): Promise<{ id: string; workerVersionId: string; modelVersionId: string | null }> {
  const now = new Date().toISOString();
  const workerId = randomUUID();
  const name = spec.workerName ?? 'Fake worker';
  await app.db
    .insertInto('workers')
    .values({
      id: workerId,
      name,
      slug: `${name.toLowerCase().replace(/\W+/g, '_')}_${workerId.slice(0, 8)}`,
      type: 'recognizer',
      description: '',
      repository_url: 'https://gitlab.example.org/workers/fake',
      archived: 0,
      created: now,
    })
    .execute();
  const workerVersionId = randomUUID();
  await app.db
    .insertInto('worker_versions')
    .values({
      id: workerVersionId,
      worker_id: workerId,
      revision_hash: spec.revision === undefined ? '123412deadbeef' : spec.revision,
      version: spec.version ?? null,
      configuration: JSON.stringify({ configuration: {}, user_configuration: {} }),
      state: 'available',
      created: now,
    })
    .execute();
  let modelVersionId: string | null = null;
  if (spec.modelName) {
    const modelId = randomUUID();
    await app.db
      .insertInto('models')
      .values({ id: modelId, name: spec.modelName, description: '', created: now })
      .execute();
    modelVersionId = randomUUID();
    await app.db
      .insertInto('model_versions')
      .values({
        id: modelVersionId,
        model_id: modelId,
        tag: 'v1',
        hash: 'cafe',
        state: 'available',
        configuration: '{}',
        created: now,
      })
      .execute();
  }
  let configurationId: string | null = null;
  if (spec.configurationName) {
    configurationId = randomUUID();
    await app.db
      .insertInto('worker_configurations')
      .values({
        id: configurationId,
        worker_id: workerId,
        name: spec.configurationName,
        configuration: JSON.stringify({ batch: 8 }),
        archived: 0,
      })
      .execute();
  }
  const processId = randomUUID();
  await app.db
    .insertInto('processes')
    .values({
      id: processId,
      corpus_id: corpusId,
      name: 'Recognition',
      mode: 'workers',
      state: 'completed',
      creator_id: null,
      created: now,
      started: now,
      finished: now,
    })
    .execute();
  const id = randomUUID();
  await app.db
    .insertInto('worker_runs')
    .values({
      id,
      process_id: processId,
      worker_version_id: workerVersionId,
      model_version_id: modelVersionId,
      configuration_id: configurationId,
      parents: '[]',
      created: now,
    })
    .execute();
  return { id, workerVersionId, modelVersionId };
}
