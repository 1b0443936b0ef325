/**
 * The process and task objects (services/processes/json.ts, services/tasks/json.ts): answered
 * by the processes and tasks groups, so named once in the document.
 */
import { z } from 'zod';
import { PROCESS_MODES, PROCESS_STATES } from '../services/processes/state';
import { workerRunSummary } from './schemas';

const uuid = z.uuid();

export const task = z
  .object({
    id: uuid,
    process_id: uuid,
    run: z.number().int(),
    depth: z.number().int(),
    slug: z.string(),
    state: z.enum(PROCESS_STATES),
    parents: z.array(uuid),
    original_task_id: uuid.nullable(),
    requires_gpu: z.boolean(),
    shm_size: z.null(),
    worker_run: workerRunSummary,
    agent: z.object({ id: uuid, hostname: z.string() }).nullable(),
    chunk: z.number().int().nullable(),
    elements_count: z.number().int(),
    attempts: z.number().int(),
    created: z.string(),
    updated: z.string(),
    started: z.string().nullable(),
    finished: z.string().nullable(),
    logs: z.string().optional().describe('RetrieveTask only: the last MiB of output'),
  })
  .meta({ id: 'Task' });

const listItemFields = {
  id: uuid,
  name: z.string().nullable(),
  mode: z.enum(PROCESS_MODES),
  corpus: uuid.nullable().describe("Null for a person's local process"),
  corpus_name: z.string().nullable(),
  state: z.enum(PROCESS_STATES),
  creator: z.object({ id: uuid, display_name: z.string() }).nullable(),
  created: z.string(),
  updated: z.string().nullable(),
  started: z.string().nullable(),
  finished: z.string().nullable(),
  activity_state: z.enum(['disabled', 'pending', 'ready', 'error']),
};

export const processListItem = z.object(listItemFields).meta({ id: 'ProcessListItem' });

export const process = z
  .object({
    ...listItemFields,
    element: z.object({ id: uuid, name: z.string(), type: z.string() }).nullable(),
    element_type: z.string().nullable(),
    element_name_contains: z.string().nullable(),
    load_children: z.string(),
    ml_class_id: uuid.nullable(),
    selection_count: z.number().int(),
    template_id: uuid.nullable(),
    farm: z.object({ id: uuid, name: z.string() }).nullable(),
    chunks: z.number().int(),
    use_gpu: z.boolean(),
    budget_id: uuid.nullable().describe('The budget its tasks are charged to (enterprise)'),
    tasks: z.array(task),
  })
  .meta({ id: 'Process' });

export const artifact = z
  .object({
    id: uuid,
    path: z.string(),
    size: z.number().int(),
    content_type: z.string(),
    s3_put_url: z.null().describe('Artifacts are uploaded to Folia itself'),
    created: z.string(),
    updated: z.string(),
  })
  .meta({ id: 'Artifact' });
