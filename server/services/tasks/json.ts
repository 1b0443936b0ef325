/**
 * The Task object of the API (api part 2 §2.6): what the process details page lists and what
 * RetrieveTask answers. `logs` is only on RetrieveTask: lists stay small.
 */
import type { Db } from '../../db';
import type { TaskTable } from '../../db/schema';
import type { Selectable } from 'kysely';
import { workerRunSummaries, type WorkerRunSummary } from '../workerRuns';

export type TaskRow = Selectable<TaskTable>;

const parseIds = (text: string): string[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
};

export const taskElementIds = (task: Pick<TaskRow, 'elements'>): string[] =>
  parseIds(task.elements);
export const taskParentIds = (task: Pick<TaskRow, 'parents'>): string[] => parseIds(task.parents);

export interface TaskJson {
  id: string;
  process_id: string;
  run: number;
  depth: number;
  slug: string;
  state: string;
  parents: string[];
  original_task_id: string | null;
  requires_gpu: boolean;
  shm_size: null;
  worker_run: WorkerRunSummary | null;
  agent: { id: string; hostname: string } | null;
  chunk: number | null;
  elements_count: number;
  attempts: number;
  created: string;
  updated: string;
  started: string | null;
  finished: string | null;
  logs?: string;
}

/** Tasks as JSON, with their worker run summaries and agents fetched in two queries. */
export async function tasksJson(
  db: Db,
  tasks: readonly TaskRow[],
  options: { logs?: boolean } = {},
): Promise<TaskJson[]> {
  const summaries = await workerRunSummaries(
    db,
    tasks.map((task) => task.worker_run_id),
  );
  const agentIds = [...new Set(tasks.map((task) => task.agent_id).filter((id) => id !== null))];
  const agents = new Map(
    agentIds.length === 0
      ? []
      : (
          await db
            .selectFrom('agents')
            .select(['id', 'hostname'])
            .where('id', 'in', agentIds)
            .execute()
        ).map((agent) => [agent.id, agent]),
  );
  return tasks.map((task) => ({
    id: task.id,
    process_id: task.process_id,
    run: task.run,
    depth: task.depth,
    slug: task.slug,
    state: task.state,
    parents: taskParentIds(task),
    original_task_id: task.original_task_id,
    requires_gpu: task.requires_gpu === 1,
    shm_size: null,
    worker_run: task.worker_run_id ? (summaries.get(task.worker_run_id) ?? null) : null,
    agent: task.agent_id ? (agents.get(task.agent_id) ?? null) : null,
    chunk: task.chunk,
    elements_count: taskElementIds(task).length,
    attempts: task.attempts,
    created: task.created,
    updated: task.updated,
    started: task.started,
    finished: task.finished,
    ...(options.logs ? { logs: task.logs } : {}),
  }));
}

export async function taskJson(db: Db, task: TaskRow, options: { logs?: boolean } = {}) {
  return (await tasksJson(db, [task], options))[0] as TaskJson;
}
