/**
 * Processes with tasks, inserted directly (as a started process would have them), for the task
 * and agent suites: a worker whose version has a command, a process of the project in the
 * default farm, one worker run, and tasks given by slug with their parents by slug.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TaskState } from '../../../server/db/schema';

export interface TaskSpec {
  slug: string;
  state?: TaskState;
  parents?: string[];
  elements?: string[];
  run?: number;
  attempts?: number;
}

export interface Farm {
  id: string;
  token: string;
}

export interface MadeProcess {
  /** A farm of its own, so that suites sharing an app never claim each other's tasks. */
  farm: Farm;
  processId: string;
  workerRunId: string;
  workerVersionId: string;
  tasks: Record<string, string>;
}

export async function defaultFarm(app: FastifyInstance) {
  return app.db
    .selectFrom('farms')
    .selectAll()
    .where('name', '=', 'Default farm')
    .executeTakeFirstOrThrow();
}

export async function makeFarm(app: FastifyInstance): Promise<Farm> {
  const id = randomUUID();
  const token = randomUUID().replace(/-/g, '');
  await app.db
    .insertInto('farms')
    .values({ id, name: `Farm ${id.slice(0, 8)}`, token, created: new Date().toISOString() })
    .execute();
  return { id, token };
}

export async function makeProcess(
  app: FastifyInstance,
  corpusId: string,
  creatorId: string,
  specs: TaskSpec[],
  options: { command?: string[] | null; farm?: Farm } = {},
): Promise<MadeProcess> {
  const now = new Date().toISOString();
  const workerId = randomUUID();
  await app.db
    .insertInto('workers')
    .values({
      id: workerId,
      name: 'Recognizer',
      slug: `recognizer_${workerId.slice(0, 8)}`,
      type: 'recognizer',
      description: '',
      repository_url: null,
      archived: 0,
      created: now,
    })
    .execute();
  const workerVersionId = randomUUID();
  const command = options.command === undefined ? ['node', '{folia}/worker.js'] : options.command;
  await app.db
    .insertInto('worker_versions')
    .values({
      id: workerVersionId,
      worker_id: workerId,
      revision_hash: null,
      version: 1,
      configuration: JSON.stringify({ configuration: {}, ...(command ? { command } : {}) }),
      state: 'available',
      created: now,
    })
    .execute();
  const processId = randomUUID();
  const farm = options.farm ?? (await makeFarm(app));
  const farmId = farm.id;
  await app.db
    .insertInto('processes')
    .values({
      id: processId,
      corpus_id: corpusId,
      name: 'Recognition',
      mode: 'workers',
      state: 'unscheduled',
      creator_id: creatorId,
      created: now,
      started: now,
      finished: null,
      farm_id: farmId,
      updated: now,
    })
    .execute();
  const workerRunId = randomUUID();
  await app.db
    .insertInto('worker_runs')
    .values({
      id: workerRunId,
      process_id: processId,
      worker_version_id: workerVersionId,
      model_version_id: null,
      configuration_id: null,
      parents: '[]',
      created: now,
    })
    .execute();
  const tasks: Record<string, string> = {};
  for (const spec of specs) tasks[spec.slug] = randomUUID();
  for (const [index, spec] of specs.entries()) {
    const created = new Date(Date.parse(now) + index).toISOString();
    await app.db
      .insertInto('tasks')
      .values({
        id: tasks[spec.slug]!,
        process_id: processId,
        run: spec.run ?? 0,
        depth: spec.parents?.length ? 1 : 0,
        slug: spec.slug,
        kind: 'worker',
        state: spec.state ?? 'pending',
        parents: JSON.stringify((spec.parents ?? []).map((slug) => tasks[slug])),
        worker_run_id: workerRunId,
        elements: JSON.stringify(spec.elements ?? []),
        chunk: null,
        original_task_id: null,
        attempts: spec.attempts ?? 0,
        created,
        updated: created,
      })
      .execute();
  }
  return { farm, processId, workerRunId, workerVersionId, tasks };
}

export async function taskRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function processState(app: FastifyInstance, id: string) {
  return (
    await app.db
      .selectFrom('processes')
      .select('state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).state;
}

/** A registered agent of the farm, with the headers its calls carry. */
export async function registerAgent(
  app: FastifyInstance,
  farm: Farm,
  hostname = 'gpu-1',
  slots = 2,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/ponos/agent/register/',
    headers: { authorization: `Farm ${farm.token}` },
    payload: { hostname, slots },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  const body = response.json<{ id: string; token: string }>();
  return { id: body.id, token: body.token, headers: { authorization: `Agent ${body.token}` } };
}

export type Agent = Awaited<ReturnType<typeof registerAgent>>;

export async function claim(app: FastifyInstance, agent: Agent, slots = 1) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/ponos/agent/claim/',
    headers: agent.headers,
    payload: { slots },
  });
  if (response.statusCode !== 200) throw new Error(response.body);
  return response.json<{ tasks: { id: string; token: string; [key: string]: unknown }[] }>().tasks;
}

export async function finish(app: FastifyInstance, agent: Agent, taskId: string, state: string) {
  return app.inject({
    method: 'PATCH',
    url: `/api/v1/ponos/task/${taskId}/`,
    headers: agent.headers,
    payload: { state },
  });
}
