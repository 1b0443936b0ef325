/**
 * The worker runs of a process as a graph: parents must be runs of the same process and form a
 * DAG. Used when runs change (a cycle is refused) and when tasks are made (depth, order).
 */
import type { Db } from '../../db';
import { invalidPk, validationError } from '../../errors';

export const CYCLE = 'Worker runs cannot form a cycle.';

export interface RunNode {
  id: string;
  parents: string[];
}

export const parseRunParents = (text: string): string[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
};

/** The runs parents first; null when they form a cycle. */
export function topologicalOrder<T extends RunNode>(runs: readonly T[]): T[] | null {
  const byId = new Map(runs.map((run) => [run.id, run]));
  const state = new Map<string, 'visiting' | 'done'>();
  const ordered: T[] = [];
  const visit = (run: T): boolean => {
    const seen = state.get(run.id);
    if (seen === 'done') return true;
    if (seen === 'visiting') return false;
    state.set(run.id, 'visiting');
    for (const parentId of run.parents) {
      const parent = byId.get(parentId);
      if (parent && !visit(parent)) return false;
    }
    state.set(run.id, 'done');
    ordered.push(run);
    return true;
  };
  for (const run of runs) if (!visit(run)) return null;
  return ordered;
}

/** Longest parent path of each run (0 for runs without parents); the runs form a DAG. */
export function runDepths(runs: readonly RunNode[]): Map<string, number> {
  const depths = new Map<string, number>();
  for (const run of topologicalOrder(runs) ?? []) {
    const parentDepths = run.parents.map((id) => depths.get(id) ?? 0);
    depths.set(run.id, run.parents.length ? Math.max(...parentDepths) + 1 : 0);
  }
  return depths;
}

/**
 * Checks `parents` for the run `runId` (null: a new run) of the process: known runs of that
 * process, once each, and no cycle once set. Returns them lower-cased.
 */
export async function checkRunParents(
  db: Db,
  processId: string,
  runId: string | null,
  parents: readonly string[],
): Promise<string[]> {
  const wanted = [...new Set(parents.map((id) => id.toLowerCase()))];
  const runs = await db
    .selectFrom('worker_runs')
    .select(['id', 'parents'])
    .where('process_id', '=', processId)
    .execute();
  const known = new Set(runs.map((run) => run.id));
  const unknown = parents.find((id) => !known.has(id.toLowerCase()));
  if (unknown !== undefined) {
    throw invalidPk('parents', unknown);
  }
  if (runId && wanted.includes(runId)) throw validationError('parents', CYCLE);
  const nodes: RunNode[] = runs.map((run) => ({
    id: run.id,
    parents: run.id === runId ? wanted : parseRunParents(run.parents),
  }));
  if (runId === null) nodes.push({ id: 'new', parents: wanted });
  if (!topologicalOrder(nodes)) throw validationError('parents', CYCLE);
  return wanted;
}
