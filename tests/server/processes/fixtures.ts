/**
 * What the process suites share: a project tree to filter, published worker versions to run,
 * and shortcuts to create and start a workers process through the API.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Client } from '../harness';
import { insertElements } from '../elementsFixtures';
import { refreshProcessState } from '../../../server/services/processes/state';

/**
 * Two folders and a loose page at the top; "Volume A" holds three pages, the first of which
 * holds two lines. Names sort in the order listed within each level.
 */
export async function makeTree(app: FastifyInstance, corpusId: string) {
  return insertElements(app, corpusId, [
    { name: 'Volume A', type: 'folder' },
    { name: 'Volume B', type: 'folder' },
    { name: 'Loose page', type: 'page' },
    { name: 'Page 1', type: 'page', parent: 'Volume A' },
    { name: 'Page 2', type: 'page', parent: 'Volume A' },
    { name: 'Page 3', type: 'page', parent: 'Volume A' },
    { name: 'Page 4', type: 'page', parent: 'Volume B' },
    { name: 'Line 1a', type: 'text_line', parent: 'Page 1' },
    { name: 'Line 1b', type: 'text_line', parent: 'Page 1' },
  ]);
}

export interface VersionSpec {
  slug?: string;
  state?: string;
  gpuUsage?: string;
}

/** A worker and one version of it; returns both ids. */
export async function makeVersion(app: FastifyInstance, spec: VersionSpec = {}) {
  const now = new Date().toISOString();
  const workerId = randomUUID();
  const slug = spec.slug ?? `worker_${workerId.slice(0, 8)}`;
  await app.db
    .insertInto('workers')
    .values({
      id: workerId,
      name: `Worker ${slug}`,
      slug,
      type: 'recognizer',
      description: '',
      repository_url: null,
      archived: 0,
      created: now,
    })
    .execute();
  const versionId = randomUUID();
  await app.db
    .insertInto('worker_versions')
    .values({
      id: versionId,
      worker_id: workerId,
      revision_hash: null,
      version: 1,
      configuration: JSON.stringify({ command: ['true'] }),
      state: spec.state ?? 'available',
      created: now,
      gpu_usage: spec.gpuUsage ?? 'disabled',
    })
    .execute();
  return { workerId, versionId };
}

export async function makeConfiguration(app: FastifyInstance, workerId: string, archived = false) {
  const id = randomUUID();
  await app.db
    .insertInto('worker_configurations')
    .values({
      id,
      worker_id: workerId,
      name: `Configuration ${id.slice(0, 8)}`,
      configuration: '{}',
      archived: archived ? 1 : 0,
    })
    .execute();
  return id;
}

/** A workers process of the project made by `client`, with the filters given. */
export async function createProcess(
  client: Client,
  corpusId: string,
  body: Record<string, unknown> = {},
) {
  const response = await client.post('process/corpus/', { corpus: corpusId, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string } & Record<string, unknown>;
}

export async function addRun(
  client: Client,
  processId: string,
  versionId: string,
  parents: string[] = [],
  extra: Record<string, unknown> = {},
) {
  const response = await client.post(`process/${processId}/workers/`, {
    worker_version_id: versionId,
    parents,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

export interface TaskJson {
  id: string;
  slug: string;
  state: string;
  run: number;
  depth: number;
  parents: string[];
  chunk: number | null;
  elements_count: number;
  worker_run: { id: string } | null;
}

export async function tasksOf(client: Client, processId: string): Promise<TaskJson[]> {
  const response = await client.get(`process/${processId}/`);
  expect(response.statusCode).toBe(200);
  return (response.json() as { tasks: TaskJson[] }).tasks;
}

/** What an agent would do: sets tasks' states, then the process state is derived again. */
export async function setTaskStates(
  app: FastifyInstance,
  processId: string,
  state: string,
  taskIds?: string[],
) {
  let query = app.db
    .updateTable('tasks')
    .set({ state: state as never, finished: new Date().toISOString() })
    .where('process_id', '=', processId);
  if (taskIds) query = query.where('id', 'in', taskIds);
  await query.execute();
  await refreshProcessState(app.db, processId);
}

export async function activities(app: FastifyInstance, processId: string) {
  return app.db
    .selectFrom('worker_activities')
    .innerJoin('worker_runs', 'worker_runs.id', 'worker_activities.worker_run_id')
    .select([
      'worker_activities.worker_run_id',
      'worker_activities.element_id',
      'worker_activities.state',
    ])
    .where('worker_runs.process_id', '=', processId)
    .execute();
}
