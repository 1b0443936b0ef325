/**
 * The worker run as RetrieveWorkerRun, PartialUpdateWorkerRun, the process' run lists and the
 * local runs answer it (services/workerRuns.ts workerRunJson): shared by the workers, worker
 * runs and processes groups, so named once in the document.
 */
import { z } from 'zod';
import { VERSION_STATES } from '../services/workers/versions';
import { PROCESS_MODES, PROCESS_STATES } from '../services/processes/state';

const uuid = z.uuid();
/** A JSON object stored as text: `{}` when it cannot be read. */
const jsonValue = z.unknown();

export const workerRun = z
  .object({
    id: uuid,
    parents: jsonValue.describe('The ids of the runs this one waits for'),
    worker_version: z.object({
      id: uuid,
      worker: z.object({
        id: uuid,
        name: z.string(),
        slug: z.string(),
        type: z.string(),
        description: z.string(),
        repository_url: z.string().nullable(),
      }),
      revision: z.object({ hash: z.string() }).nullable(),
      version: z.number().int().nullable(),
      configuration: jsonValue,
      state: z.enum(VERSION_STATES),
      created: z.string(),
    }),
    configuration: z
      .object({ id: uuid, name: z.string(), configuration: jsonValue, archived: z.boolean() })
      .nullable(),
    model_version: z
      .object({
        id: uuid,
        model: z.object({ id: uuid, name: z.string() }),
        tag: z.string().nullable(),
        hash: z.string().nullable(),
        state: z.string(),
        configuration: jsonValue,
        created: z.string(),
      })
      .nullable(),
    process: z.object({
      id: uuid,
      corpus: uuid.nullable().describe("Null for a person's local process"),
      name: z.string().nullable(),
      mode: z.enum(PROCESS_MODES),
      state: z.enum(PROCESS_STATES),
      created: z.string(),
    }),
    created: z.string(),
    summary: z.string(),
  })
  .meta({ id: 'WorkerRun' });
