/**
 * The dataset as the datasets group and a dataset process' sets answer it
 * (services/datasets/datasets.ts datasetsJson), named once in the document.
 */
import { z } from 'zod';

const uuid = z.uuid();

export const datasetSet = z.object({ id: uuid, name: z.string() }).meta({ id: 'DatasetSet' });

export const dataset = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string(),
    state: z.enum(['open', 'building', 'complete', 'error']),
    sets: z.array(datasetSet),
    set_elements: z.record(z.string(), z.number().int()).describe('Element count by set name'),
    unique_elements: z.boolean(),
    corpus_id: uuid,
    creator: z.string().nullable().describe("The creator's display name"),
    task_id: uuid.nullable(),
    populate_job_id: uuid.nullable().describe('The job of the last populate (GET /jobs/{id}/)'),
    created: z.string(),
    updated: z.string(),
  })
  .meta({ id: 'Dataset' });
