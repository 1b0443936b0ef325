/**
 * Jobs as their owners see them (spec 000 §2 Jobs modal, §7 Jobs). A job belongs to the user
 * who started it; site admins may also read and cancel any job by id. Anyone else gets 404.
 */
import type { Db } from '../db';
import type { Job, JobStatus, User } from '../db/schema';
import { notFound } from '../errors';
import { requireUuid } from '../permissions';

/** The Jobs modal lists a user's latest jobs; older ones are only reachable by id. */
export const JOB_LIST_LIMIT = 100;

export interface JobJson {
  id: string;
  description: string;
  status: JobStatus;
  progress: number | null;
  enqueued_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface JobDetailJson extends JobJson {
  kind: string;
  corpus_id: string | null;
  /** What the job produced (counts, an import report), once ended; null before or without. */
  result: unknown;
  error: string | null;
}

const LIST_COLUMNS = [
  'id',
  'description',
  'status',
  'progress',
  'enqueued_at',
  'started_at',
  'ended_at',
] as const;

function jobJson(row: Pick<Job, (typeof LIST_COLUMNS)[number]>): JobJson {
  return {
    id: row.id,
    description: row.description,
    status: row.status,
    progress: row.progress,
    enqueued_at: row.enqueued_at,
    started_at: row.started_at,
    ended_at: row.ended_at,
  };
}

function parseResult(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function jobDetailJson(job: Job): JobDetailJson {
  return {
    ...jobJson(job),
    kind: job.kind,
    corpus_id: job.corpus_id,
    result: parseResult(job.result),
    error: job.error,
  };
}

/** The caller's own jobs, newest first. */
export async function listOwnJobs(db: Db, user: User): Promise<JobJson[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(LIST_COLUMNS)
    .where('user_id', '=', user.id)
    .orderBy('enqueued_at', 'desc')
    .orderBy('id', 'desc')
    .limit(JOB_LIST_LIMIT)
    .execute();
  return rows.map(jobJson);
}

/** The job if the caller may see it (owner or site admin), else 404 as for an unknown id. */
export async function requireVisibleJob(db: Db, user: User, id: string): Promise<Job> {
  const job = await db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!job || (job.user_id !== user.id && !user.is_admin)) throw notFound();
  return job;
}

/**
 * DestroyJob. A started job is asked to stop (its handler sees shouldStop()); any other job
 * is deleted, so a queued job never runs. Each step is conditional on the status, so a job
 * that a runner claims or ends meanwhile is handled by the step that fits its new status.
 */
export async function cancelJob(db: Db, jobId: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const deleted = await db
      .deleteFrom('jobs')
      .where('id', '=', jobId)
      .where('status', '!=', 'started')
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) > 0) return;
    const stopped = await db
      .updateTable('jobs')
      .set({ stop_requested: 1 })
      .where('id', '=', jobId)
      .where('status', '=', 'started')
      .executeTakeFirst();
    if (Number(stopped.numUpdatedRows) > 0) return;
    const exists = await db
      .selectFrom('jobs')
      .select('id')
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (!exists) return;
  }
}
