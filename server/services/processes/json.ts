/**
 * The Process object (api part 2 §2.2, src/api/processTypes.ts): list items carry the project's
 * name and the creator; RetrieveProcess adds the filters, the farm and the tasks of every run.
 */
import type { Db } from '../../db';
import { tasksJson, type TaskJson } from '../tasks/json';
import type { ProcessRow } from './rights';

export interface ProcessListItemJson {
  id: string;
  name: string | null;
  mode: string;
  corpus: string | null;
  corpus_name: string | null;
  state: string;
  creator: { id: string; display_name: string } | null;
  created: string;
  updated: string | null;
  started: string | null;
  finished: string | null;
  activity_state: string;
}

export interface ProcessJson extends ProcessListItemJson {
  element: { id: string; name: string; type: string } | null;
  element_type: string | null;
  element_name_contains: string | null;
  load_children: string;
  ml_class_id: string | null;
  selection_count: number;
  template_id: string | null;
  farm: { id: string; name: string } | null;
  chunks: number;
  use_gpu: boolean;
  /** The budget its finished tasks are charged to (enterprise edition), or null. */
  budget_id: string | null;
  tasks: TaskJson[];
}

/** A process row joined with its project's name and its creator's display name. */
export interface ListedProcessRow extends ProcessRow {
  corpus_name: string | null;
  creator_name: string | null;
}

export function processListItemJson(row: ListedProcessRow): ProcessListItemJson {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    corpus: row.corpus_id,
    corpus_name: row.corpus_name,
    state: row.state,
    creator:
      row.creator_id && row.creator_name !== null
        ? { id: row.creator_id, display_name: row.creator_name }
        : null,
    created: row.created,
    updated: row.updated,
    started: row.started,
    finished: row.finished,
    activity_state: row.activity_state,
  };
}

/** The list query: processes with the names a list shows, in one join. */
export function listedProcesses(db: Db) {
  return db
    .selectFrom('processes')
    .leftJoin('corpora', 'corpora.id', 'processes.corpus_id')
    .leftJoin('users', 'users.id', 'processes.creator_id')
    .selectAll('processes')
    .select(['corpora.name as corpus_name', 'users.display_name as creator_name']);
}

export async function processJson(db: Db, id: string): Promise<ProcessJson> {
  const row = await listedProcesses(db).where('processes.id', '=', id).executeTakeFirstOrThrow();
  const [element, farm, selection, tasks] = await Promise.all([
    row.element_id
      ? db
          .selectFrom('elements')
          .innerJoin('element_types', 'element_types.id', 'elements.type_id')
          .select(['elements.id', 'elements.name', 'element_types.slug as type'])
          .where('elements.id', '=', row.element_id)
          .executeTakeFirst()
      : undefined,
    row.farm_id
      ? db
          .selectFrom('farms')
          .select(['id', 'name'])
          .where('id', '=', row.farm_id)
          .executeTakeFirst()
      : undefined,
    db
      .selectFrom('process_elements')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('process_id', '=', id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('tasks')
      .selectAll()
      .where('process_id', '=', id)
      .orderBy('run')
      .orderBy('depth')
      .orderBy('created')
      .orderBy('slug')
      .execute(),
  ]);
  return {
    ...processListItemJson(row),
    element: element ?? null,
    element_type: row.element_type,
    element_name_contains: row.element_name_contains,
    load_children: row.load_children,
    ml_class_id: row.ml_class_id,
    selection_count: Number(selection.count),
    template_id: row.template_id,
    farm: farm ?? null,
    chunks: row.chunks,
    use_gpu: row.use_gpu === 1,
    budget_id: row.budget_id,
    tasks: await tasksJson(db, tasks),
  };
}
