/**
 * StartProcess (api part 2 §2.5, contract "Processes"): the selected elements are split into
 * chunks and each worker run gets one task per chunk, waiting for the tasks of its parent runs
 * on the same chunk. Retry makes the next run the same way (retry.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import { badRequest, invalidPk } from '../../errors';
import { nowIso } from '../../clock';
import { chunks as slices, INSERT_CHUNK } from '../elements/repository';
import { refreshProcessState } from './state';
import { processElementRefs, type ElementRef } from './elements';
import { processSetElementRefs } from './sets';
import { parseRunParents, runDepths, topologicalOrder } from './runGraph';
import { hasTasks, type ProcessRow } from './rights';
import { refuseSpentBudget } from '../budgets/charges';

export const START_MESSAGES = {
  notWorkers: 'Only a workers or dataset process can be started.',
  started: 'This process has already been started.',
  noRuns: 'This process has no worker runs to start.',
  noElements: 'This process has no elements to run on.',
  archived: 'A worker run of this process uses an archived configuration.',
  versionUnavailable: 'A worker run of this process uses a worker version that is not available.',
  modelUnavailable: 'A worker run of this process uses a model version that is not available.',
} as const;

export const MAX_CHUNKS = 10;

export interface StartOptions {
  farm?: string | undefined;
  chunks?: number | undefined;
  use_gpu?: boolean | undefined;
}

interface RunRow {
  id: string;
  parents: string[];
  slug: string;
  gpu_usage: string;
}

/** The runs with what tasks need, after checking each can run. */
async function runnableRuns(db: Db, processId: string): Promise<RunRow[]> {
  const rows = await db
    .selectFrom('worker_runs')
    .innerJoin('worker_versions', 'worker_versions.id', 'worker_runs.worker_version_id')
    .innerJoin('workers', 'workers.id', 'worker_versions.worker_id')
    .leftJoin('worker_configurations', 'worker_configurations.id', 'worker_runs.configuration_id')
    .leftJoin('model_versions', 'model_versions.id', 'worker_runs.model_version_id')
    .select([
      'worker_runs.id',
      'worker_runs.parents',
      'worker_runs.created',
      'workers.slug',
      'worker_versions.state as version_state',
      'worker_versions.gpu_usage',
      'worker_configurations.archived',
      'model_versions.state as model_state',
      'worker_runs.model_version_id',
    ])
    .where('worker_runs.process_id', '=', processId)
    .orderBy('worker_runs.created')
    .orderBy('worker_runs.id')
    .execute();
  if (rows.length === 0) throw badRequest(START_MESSAGES.noRuns);
  for (const row of rows) {
    if (row.archived === 1) throw badRequest(START_MESSAGES.archived);
    if (row.version_state !== 'available') throw badRequest(START_MESSAGES.versionUnavailable);
    if (row.model_version_id && row.model_state !== 'available') {
      throw badRequest(START_MESSAGES.modelUnavailable);
    }
  }
  return rows.map((row) => ({
    id: row.id,
    parents: parseRunParents(row.parents),
    slug: row.slug,
    gpu_usage: row.gpu_usage,
  }));
}

/** `count` near-equal consecutive slices, the first ones one longer; fewer if fewer items. */
export function splitChunks<T>(items: readonly T[], count: number): T[][] {
  const n = Math.max(1, Math.min(count, items.length));
  const base = Math.floor(items.length / n);
  const extra = items.length % n;
  const out: T[][] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const size = base + (i < extra ? 1 : 0);
    out.push(items.slice(start, start + size));
    start += size;
  }
  return out;
}

/** The task slug base of each run: its worker's slug, `_2`, `_3`… for a worker seen again. */
function slugBases(runs: readonly RunRow[]): Map<string, string> {
  const seen = new Map<string, number>();
  const bases = new Map<string, string>();
  for (const run of runs) {
    const count = (seen.get(run.slug) ?? 0) + 1;
    seen.set(run.slug, count);
    bases.set(run.id, count === 1 ? run.slug : `${run.slug}_${count}`);
  }
  return bases;
}

/**
 * Makes run `runNumber` of the process' tasks from its current runs and filters, queues the
 * worker activities of its elements and refreshes the process' state. In a transaction.
 */
export async function createTaskRun(
  trx: Db,
  process: ProcessRow,
  runNumber: number,
  options: { chunks: number; useGpu: boolean; keepProcessed: boolean },
): Promise<void> {
  const runs = await runnableRuns(trx, process.id);
  // A dataset process runs on the elements of its chosen sets, a workers one on its filters'.
  const elements =
    process.mode === 'dataset'
      ? await processSetElementRefs(trx, process.id)
      : await processElementRefs(trx, process);
  if (elements.length === 0) throw badRequest(START_MESSAGES.noElements);
  const ordered = topologicalOrder(runs) ?? runs;
  const depths = runDepths(runs);
  const bases = slugBases(runs);
  const parts = splitChunks(elements, options.chunks);
  const now = nowIso();
  // Task ids per (run, chunk index), so children find their parents' tasks on the same chunk.
  const taskIds = new Map<string, string>();
  const key = (runId: string, chunk: number) => `${runId}:${chunk}`;
  const rows = ordered.flatMap((run) =>
    parts.map((part, index) => {
      const id = randomUUID();
      taskIds.set(key(run.id, index), id);
      const parents = run.parents
        .map((parentId) => taskIds.get(key(parentId, index)))
        .filter((taskId): taskId is string => taskId !== undefined);
      const base = bases.get(run.id) ?? run.slug;
      return {
        id,
        process_id: process.id,
        run: runNumber,
        depth: depths.get(run.id) ?? 0,
        slug: parts.length > 1 ? `${base}_${index + 1}` : base,
        kind: 'worker' as const,
        state: parents.length ? ('unscheduled' as const) : ('pending' as const),
        parents: JSON.stringify(parents),
        worker_run_id: run.id,
        elements: JSON.stringify(part.map((element) => element.id)),
        chunk: parts.length > 1 ? index + 1 : null,
        original_task_id: null,
        requires_gpu:
          run.gpu_usage === 'required' || (options.useGpu && run.gpu_usage !== 'disabled')
            ? (1 as const)
            : (0 as const),
        created: now,
        updated: now,
        started: null,
        finished: null,
      };
    }),
  );
  for (const part of slices(rows, 100)) await trx.insertInto('tasks').values(part).execute();
  await queueActivities(
    trx,
    runs.map((run) => run.id),
    elements,
    options.keepProcessed,
  );
  await refreshProcessState(trx, process.id);
}

/** Every (run, element) activity becomes queued; on a retry, processed ones stay processed. */
async function queueActivities(
  trx: Db,
  runIds: readonly string[],
  elements: readonly ElementRef[],
  keepProcessed: boolean,
): Promise<void> {
  const now = nowIso();
  for (const runId of runIds) {
    for (const part of slices(elements, INSERT_CHUNK)) {
      const ids = part.map((element) => element.id);
      let reset = trx
        .updateTable('worker_activities')
        .set({ state: 'queued', updated: now })
        .where('worker_run_id', '=', runId)
        .where('element_id', 'in', ids);
      if (keepProcessed) reset = reset.where('state', '!=', 'processed');
      await reset.execute();
      await trx
        .insertInto('worker_activities')
        .values(
          ids.map((elementId) => ({
            id: randomUUID(),
            worker_run_id: runId,
            element_id: elementId,
            state: 'queued' as const,
            created: now,
            updated: now,
          })),
        )
        .onConflict((oc) => oc.columns(['worker_run_id', 'element_id']).doNothing())
        .execute();
    }
  }
}

async function farmId(db: Db, requested: string | undefined): Promise<string | null> {
  if (requested) {
    const farm = await db
      .selectFrom('farms')
      .select('id')
      .where('id', '=', requested.toLowerCase())
      .executeTakeFirst();
    if (!farm) throw invalidPk('farm', requested);
    return farm.id;
  }
  const fallback = await db
    .selectFrom('farms')
    .select('id')
    .orderBy('created')
    .orderBy('id')
    .executeTakeFirst();
  return fallback?.id ?? null;
}

export async function startProcess(
  db: Db,
  process: ProcessRow,
  options: StartOptions,
): Promise<void> {
  if (process.mode !== 'workers' && process.mode !== 'dataset') {
    throw badRequest(START_MESSAGES.notWorkers);
  }
  const chunkCount = options.chunks ?? 1;
  const useGpu = options.use_gpu ?? false;
  await db.transaction().execute(async (trx) => {
    // The row lock makes two starts at once wait for each other, and the second find tasks.
    await trx
      .updateTable('processes')
      .set({ updated: nowIso() })
      .where('id', '=', process.id)
      .execute();
    if (await hasTasks(trx, process.id)) throw badRequest(START_MESSAGES.started);
    await refuseSpentBudget(trx, process.id);
    const farm = await farmId(trx, options.farm);
    await createTaskRun(trx, process, 0, { chunks: chunkCount, useGpu, keepProcessed: false });
    await trx
      .updateTable('processes')
      .set({
        started: nowIso(),
        farm_id: farm,
        chunks: chunkCount,
        use_gpu: useGpu ? 1 : 0,
        activity_state: 'ready',
      })
      .where('id', '=', process.id)
      .execute();
  });
}
