/**
 * The job queue: a `jobs` table that every server process shares. Features declare what a
 * kind of job does with defineJob() at module level and hand work over with enqueueJob(); a
 * runner (runner.ts) claims queued rows one at a time and records how they end.
 *
 * Row life: queued → started (claimed_by, heartbeat_at) → processed (result) or error (error).
 * Every write a runner makes to a started job names the runner in its WHERE clause, so a
 * runner that lost its job (declared abandoned, deleted with its project) changes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ColumnType } from 'kysely';
import { nowIso } from '../clock';
import type { Db, Dialect } from '../db';
import type { Job } from '../db/schema';

// Columns added by migration 0004_jobs_heartbeat. They are declared here rather than in
// db/schema.ts because only the queue reads or writes them.
declare module '../db/schema' {
  interface JobTable {
    /** Last sign of life from the runner working on the job; null unless started. */
    heartbeat_at: string | null;
    /** How many times the job was claimed. */
    attempts: ColumnType<number, number | undefined, number>;
  }
}

export interface JobContext<P> {
  app: FastifyInstance;
  job: Job;
  payload: P;
  /** Report progress from 0 to 1; writes are throttled, so call it as often as convenient. */
  progress(fraction: number): Promise<void>;
  /**
   * True once the owner asked to stop the job, the server is shutting down, or the job is no
   * longer this runner's. The handler should then return early (what it returns is kept).
   */
  shouldStop(): Promise<boolean>;
  /**
   * The last checkpoint an earlier run of this job stored before it was cut short (a restart),
   * or null on a first run. A resumed handler adds what it does to it.
   */
  resumed: unknown;
  /**
   * Stores how far the job got (JSON), as its result until it ends. Pass the transaction that
   * did the work, so the checkpoint commits with it: a run cut short leaves exactly what its
   * committed work says.
   */
  checkpoint(value: unknown, db?: Db): Promise<void>;
}

export interface JobOptions {
  /**
   * When the process running the job dies, put the job back in the queue (for handlers that
   * can safely run again from the start) instead of ending it in error. Default false.
   */
  retryOnRestart?: boolean;
}

export interface JobDefinition {
  kind: string;
  handler: (ctx: JobContext<unknown>) => Promise<unknown>;
  retryOnRestart: boolean;
}

/** Claims after which an interrupted job is not retried even if its kind allows it. */
export const MAX_ATTEMPTS = 3;

export const STOPPED_BY_USER = 'Stopped by the user';
export const INTERRUPTED = 'Interrupted by a server restart';
export const UNKNOWN_KIND = 'Unknown job kind';

const registry = new Map<string, JobDefinition>();

/** Declares what jobs of `kind` do; the handler's return value is stored as the job's result. */
export function defineJob<P>(
  kind: string,
  handler: (ctx: JobContext<P>) => Promise<unknown>,
  options: JobOptions = {},
): void {
  if (registry.has(kind)) throw new Error(`Job kind "${kind}" is defined twice`);
  registry.set(kind, {
    kind,
    handler: handler as JobDefinition['handler'],
    retryOnRestart: options.retryOnRestart ?? false,
  });
}

export function jobDefinition(kind: string): JobDefinition | undefined {
  return registry.get(kind);
}

const enqueueListeners = new Set<() => void>();

/** Runners of this process listen, so a new job starts without waiting for the next poll. */
export function onJobEnqueued(listener: () => void): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

/**
 * Adds a queued job. `db` may be a transaction: the job then exists (and runs) only if the
 * transaction commits.
 */
export async function enqueueJob(
  db: Db,
  input: {
    kind: string;
    description: string;
    userId: string | null;
    corpusId: string | null;
    payload: unknown;
  },
): Promise<Job> {
  const job = await db
    .insertInto('jobs')
    .values({
      id: randomUUID(),
      user_id: input.userId,
      corpus_id: input.corpusId,
      kind: input.kind,
      description: input.description,
      status: 'queued',
      progress: 0,
      payload: JSON.stringify(input.payload ?? null),
      result: null,
      error: null,
      stop_requested: 0,
      claimed_by: null,
      enqueued_at: nowIso(),
      started_at: null,
      ended_at: null,
      heartbeat_at: null,
      attempts: 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const listener of enqueueListeners) listener();
  return job;
}

/**
 * Takes the oldest queued job for `claimer`, or null when none is left. Atomic: however many
 * runners call it at once, each job goes to one of them.
 */
export async function claimNextJob(db: Db, dialect: Dialect, claimer: string): Promise<Job | null> {
  const now = nowIso();
  const oldestQueued = db
    .selectFrom('jobs')
    .select('id')
    .where('status', '=', 'queued')
    .orderBy('enqueued_at')
    .orderBy('id')
    .limit(1);
  const job = await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'started',
      claimed_by: claimer,
      started_at: now,
      heartbeat_at: now,
      attempts: eb('attempts', '+', 1),
    }))
    // PostgreSQL: the row lock makes concurrent claimers skip this job rather than wait for it
    // and then find it taken. SQLite runs one write at a time, so the statement is atomic.
    .where('id', '=', dialect === 'postgres' ? oldestQueued.forUpdate().skipLocked() : oldestQueued)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
  return job ?? null;
}

/** Where a runner's write to its started job applies: only while the job is still its own. */
function ownStartedJob(db: Db, jobId: string, claimer: string) {
  return db
    .updateTable('jobs')
    .where('id', '=', jobId)
    .where('claimed_by', '=', claimer)
    .where('status', '=', 'started');
}

export async function recordProgress(
  db: Db,
  jobId: string,
  claimer: string,
  progress: number,
): Promise<void> {
  await ownStartedJob(db, jobId, claimer).set({ progress, heartbeat_at: nowIso() }).execute();
}

export async function recordCheckpoint(
  db: Db,
  jobId: string,
  claimer: string,
  result: string,
): Promise<void> {
  await ownStartedJob(db, jobId, claimer).set({ result }).execute();
}

export async function recordHeartbeat(
  db: Db,
  jobIds: readonly string[],
  claimer: string,
): Promise<void> {
  if (!jobIds.length) return;
  await db
    .updateTable('jobs')
    .set({ heartbeat_at: nowIso() })
    .where('id', 'in', jobIds)
    .where('claimed_by', '=', claimer)
    .where('status', '=', 'started')
    .execute();
}

/** Whether the runner should tell the handler to stop: asked by the owner, or not ours now. */
export async function stopWanted(db: Db, jobId: string, claimer: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select(['stop_requested', 'status', 'claimed_by'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  return !row || row.stop_requested === 1 || row.status !== 'started' || row.claimed_by !== claimer;
}

export type JobEnd =
  | { status: 'processed'; result: string | null; progress: number }
  | { status: 'error'; error: string; result: string | null; progress: number }
  | { status: 'queued' };

/** Ends (or re-queues) a started job; false when the job was no longer this runner's. */
export async function endJob(
  db: Db,
  jobId: string,
  claimer: string,
  end: JobEnd,
): Promise<boolean> {
  const update =
    end.status === 'queued'
      ? requeueValues()
      : {
          status: end.status,
          progress: end.progress,
          result: end.result,
          error: end.status === 'error' ? end.error : null,
          ended_at: nowIso(),
          heartbeat_at: null,
        };
  const result = await ownStartedJob(db, jobId, claimer).set(update).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Back to the queue; the result keeps the last checkpoint, for the run that resumes it. */
function requeueValues() {
  return {
    status: 'queued' as const,
    claimed_by: null,
    started_at: null,
    heartbeat_at: null,
    progress: 0,
  };
}

export interface RecoveredJob {
  id: string;
  kind: string;
  outcome: 'queued' | 'error';
}

/**
 * Started jobs whose runner has shown no sign of life since `staleBefore`, or whose runner
 * `claimerIsGone` knows to be dead, belong to a process that died (or hung). Each goes back to
 * the queue when its kind allows a retry and it has attempts left, else it ends in error. A
 * stop the owner asked for is honoured either way.
 */
export async function recoverAbandonedJobs(
  db: Db,
  staleBefore: string,
  claimerIsGone: (claimer: string) => boolean = () => false,
): Promise<RecoveredJob[]> {
  const started = await db
    .selectFrom('jobs')
    .select(['id', 'kind', 'heartbeat_at', 'attempts', 'stop_requested', 'claimed_by'])
    .where('status', '=', 'started')
    .execute();
  const rows = started.filter(
    (row) =>
      row.heartbeat_at === null ||
      row.heartbeat_at < staleBefore ||
      (row.claimed_by !== null && claimerIsGone(row.claimed_by)),
  );
  const recovered: RecoveredJob[] = [];
  for (const row of rows) {
    const retry =
      row.stop_requested === 0 &&
      (jobDefinition(row.kind)?.retryOnRestart ?? false) &&
      row.attempts < MAX_ATTEMPTS;
    const update = retry
      ? requeueValues()
      : {
          status: 'error' as const,
          error: row.stop_requested ? STOPPED_BY_USER : INTERRUPTED,
          ended_at: nowIso(),
          heartbeat_at: null,
        };
    // Compare-and-set on the heartbeat seen: a runner that came back to life in the meantime,
    // or another process recovering the same job, wins.
    const result = await db
      .updateTable('jobs')
      .set(update)
      .where('id', '=', row.id)
      .where('status', '=', 'started')
      .where('heartbeat_at', row.heartbeat_at === null ? 'is' : '=', row.heartbeat_at)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0)
      recovered.push({ id: row.id, kind: row.kind, outcome: retry ? 'queued' : 'error' });
  }
  return recovered;
}
