/**
 * The background job as the jobs calls and the calls that start one (populating a dataset…)
 * answer it (jobs/service.ts jobJson, jobDetailJson), named once in the document.
 */
import { z } from 'zod';

const uuid = z.uuid();

export const job = z
  .object({
    id: uuid,
    description: z.string(),
    status: z.enum(['queued', 'started', 'processed', 'error']),
    progress: z.number().nullable().describe('From 0 to 1 when the job reports it'),
    enqueued_at: z.string(),
    started_at: z.string().nullable(),
    ended_at: z.string().nullable(),
  })
  .meta({ id: 'Job' });

export const jobDetail = job
  .extend({
    kind: z.string(),
    corpus_id: uuid.nullable(),
    result: z.unknown().describe('What the job produced once ended; null before or without'),
    error: z.string().nullable(),
  })
  .meta({ id: 'JobDetail' });
