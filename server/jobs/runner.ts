/**
 * Runs queued jobs in this process: a background loop (start/stop) for the server, and drain()
 * for tests and the CLI. Each runner has its own claimer id, so several processes (or several
 * runners in one process) share the queue without running a job twice.
 *
 * How a job ends:
 * - the handler returns: processed, its return value stored as the result (JSON);
 * - the handler throws: error, with the error's message (the stack goes to the log only);
 * - the owner asked to stop and the handler saw it (shouldStop() answered true): error
 *   "Stopped by the user", keeping whatever the handler returned as a partial result. A
 *   handler that finishes without ever asking has done the whole job: processed;
 * - the server shuts down while the handler runs: shouldStop() answers true, and once the
 *   handler returns the job is re-queued if its kind has retryOnRestart, else it ends in error
 *   "Interrupted by a server restart";
 * - the process dies: its heartbeat stops, and after `staleAfterMs` any runner treats the job
 *   as above (re-queue or "Interrupted by a server restart"). A runner on the same machine
 *   does so at once when the dead process' id is no longer running (a server killed and
 *   started again resumes its jobs without waiting).
 *
 * A re-queued job runs again from the start of its handler, which gets the last checkpoint of
 * the run cut short (context.resumed) so that it resumes rather than counts from zero.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Job } from '../db/schema';
import {
  INTERRUPTED,
  MAX_ATTEMPTS,
  STOPPED_BY_USER,
  UNKNOWN_KIND,
  claimNextJob,
  endJob,
  jobDefinition,
  onJobEnqueued,
  recordCheckpoint,
  recordHeartbeat,
  recordProgress,
  recoverAbandonedJobs,
  stopWanted,
  type JobContext,
  type JobEnd,
} from './queue';

export interface JobRunner {
  /** This runner's claimer id, stored in claimed_by. */
  readonly id: string;
  /** Starts the background loop: polls the queue and runs jobs one at a time. */
  start(): void;
  /** Stops the loop and asks running handlers to stop, waiting for them up to a grace period. */
  stop(): Promise<void>;
  /** Runs every queued job now, until none is left; for tests and the CLI. */
  drain(): Promise<void>;
}

export interface JobRunnerOptions {
  /** Claimer id; defaults to host, pid and a random suffix. */
  id?: string;
  /** How often the loop looks for queued jobs queued by other processes. */
  pollMs?: number;
  /** Least time between two progress writes of one job. */
  progressIntervalMs?: number;
  /** Least time between two reads of a job's stop flag. */
  stopCheckMs?: number;
  /** How often a running job's heartbeat is refreshed. */
  heartbeatMs?: number;
  /** A started job without heartbeat for this long is abandoned (its process died). */
  staleAfterMs?: number;
  /** How long stop() waits for running handlers to return. */
  stopGraceMs?: number;
}

const DEFAULTS = {
  pollMs: 500,
  progressIntervalMs: 250,
  stopCheckMs: 250,
  heartbeatMs: 10_000,
  staleAfterMs: 60_000,
  stopGraceMs: 10_000,
};

const MAX_ERROR_LENGTH = 2000;

/** Lets timers and I/O run, so a handler polling shouldStop() in a tight loop never starves them. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createJobRunner(app: FastifyInstance, options: JobRunnerOptions = {}): JobRunner {
  return new Runner(app, options);
}

/**
 * Whether a claimer id (host:pid:suffix, the default) names a process of this machine that no
 * longer runs. Only the pid says so: machines sharing one database must have distinct host
 * names (containers do unless told otherwise), or a live runner's jobs would be taken from it.
 */
function isDeadLocalClaimer(claimer: string): boolean {
  const parts = claimer.split(':');
  if (parts.length < 3) return false;
  const pid = Number(parts[parts.length - 2]);
  if (parts.slice(0, -2).join(':') !== hostname()) return false;
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message || 'The job failed.').slice(0, MAX_ERROR_LENGTH);
}

/** Why a handler was told to stop, as far as the runner knows. */
type StopReason = 'user' | 'shutdown';

class Runner implements JobRunner {
  readonly id: string;
  private readonly settings: typeof DEFAULTS;
  private running = false;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  private loopBusy = false;
  private loopTurn: Promise<void> = Promise.resolve();
  private wokenWhileBusy = false;
  private unsubscribe: (() => void) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private lastRecovery = 0;
  /** Jobs running in this runner, by id, with the promise of their end. */
  private readonly active = new Map<string, Promise<void>>();

  constructor(
    private readonly app: FastifyInstance,
    options: JobRunnerOptions,
  ) {
    const { id, ...rest } = options;
    this.id = id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.settings = { ...DEFAULTS, ...rest };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.unsubscribe = onJobEnqueued(() => this.wake());
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopping = true;
    let grace: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((resolve) => {
      grace = setTimeout(() => resolve(true), this.settings.stopGraceMs);
    });
    const ended = Promise.allSettled([this.loopTurn, ...this.active.values()]).then(() => false);
    if (await Promise.race([ended, expired])) {
      // Left started; another start of the server finds it abandoned once its heartbeat is old.
      this.app.log.warn({ jobs: [...this.active.keys()] }, 'jobs still running at shutdown');
    }
    clearTimeout(grace);
    this.stopping = false;
  }

  async drain(): Promise<void> {
    await this.recover(true);
    for (;;) {
      const job = await claimNextJob(this.app.db, this.app.dialect, this.id);
      if (job) {
        await this.run(job);
        continue;
      }
      // The background loop of this runner may still be busy with a job it claimed.
      if (!this.active.size) return;
      await Promise.allSettled([...this.active.values()]);
    }
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // A turn still busy schedules the next one when it ends.
      if (!this.loopBusy) this.loopTurn = this.pass();
    }, ms);
    this.timer.unref();
  }

  private wake(): void {
    if (!this.running) return;
    if (this.loopBusy) this.wokenWhileBusy = true;
    else this.schedule(0);
  }

  /** One turn of the background loop: run jobs until the queue is empty, then sleep. */
  private async pass(): Promise<void> {
    this.timer = null;
    if (!this.running) return;
    this.loopBusy = true;
    this.wokenWhileBusy = false;
    try {
      await this.recover(false);
      while (this.running) {
        const job = await claimNextJob(this.app.db, this.app.dialect, this.id);
        if (!job) break;
        if (!this.running) {
          // Claimed while the server began to shut down: another process or start may run it.
          await this.end(job, { status: 'queued' });
          break;
        }
        await this.run(job);
      }
    } catch (error) {
      // The database may be briefly unreachable: log and try again on the next turn.
      this.app.log.error({ err: error }, 'job queue poll failed');
    } finally {
      this.loopBusy = false;
      this.schedule(this.wokenWhileBusy ? 0 : this.settings.pollMs);
    }
  }

  /** Looks for jobs of dead processes: always when asked, else at most once a heartbeat. */
  private async recover(now: boolean): Promise<void> {
    if (!now && Date.now() - this.lastRecovery < this.settings.heartbeatMs) return;
    this.lastRecovery = Date.now();
    const staleBefore = new Date(Date.now() - this.settings.staleAfterMs).toISOString();
    for (const job of await recoverAbandonedJobs(this.app.db, staleBefore, isDeadLocalClaimer)) {
      this.app.log.warn(
        { job: job.id, kind: job.kind, outcome: job.outcome, maxAttempts: MAX_ATTEMPTS },
        'recovered a job abandoned by a dead process',
      );
    }
  }

  /** Runs one claimed job to its end; never throws. */
  private async run(job: Job): Promise<void> {
    const done = this.execute(job).catch((error: unknown) => {
      this.app.log.error({ err: error, job: job.id, kind: job.kind }, 'job bookkeeping failed');
    });
    this.active.set(job.id, done);
    this.beat();
    try {
      await done;
    } finally {
      this.active.delete(job.id);
      this.beat();
    }
  }

  /** Keeps a heartbeat timer exactly while this runner has jobs running. */
  private beat(): void {
    if (this.active.size && !this.heartbeat) {
      this.heartbeat = setInterval(() => {
        recordHeartbeat(this.app.db, [...this.active.keys()], this.id).catch((error: unknown) =>
          this.app.log.error({ err: error }, 'job heartbeat failed'),
        );
      }, this.settings.heartbeatMs);
      this.heartbeat.unref();
    } else if (!this.active.size && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  private async execute(job: Job): Promise<void> {
    const { db } = this.app;
    const definition = jobDefinition(job.kind);
    if (!definition) {
      await this.end(job, { status: 'error', error: UNKNOWN_KIND, result: null, progress: 0 });
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
    } catch {
      await this.end(job, {
        status: 'error',
        error: 'The job payload is not valid JSON.',
        result: null,
        progress: 0,
      });
      return;
    }

    const { progressIntervalMs, stopCheckMs } = this.settings;
    let progress = job.progress;
    let written = job.progress;
    let lastWrite = 0;
    let trailing: NodeJS.Timeout | null = null;
    let writing: Promise<void> = Promise.resolve();
    let stopReason: StopReason | null = null;
    let lastStopCheck = 0;
    let stopAnswer = false;
    let checkpoint = job.result;

    const write = (): Promise<void> => {
      if (trailing) clearTimeout(trailing);
      trailing = null;
      if (progress === written) return writing;
      const value = progress;
      written = value;
      lastWrite = Date.now();
      writing = writing
        .then(() => recordProgress(db, job.id, this.id, value))
        .catch((error: unknown) =>
          this.app.log.error({ err: error, job: job.id }, 'job progress write failed'),
        );
      return writing;
    };

    let resumed: unknown = null;
    try {
      resumed = job.result === null ? null : JSON.parse(job.result);
    } catch {
      resumed = null;
    }

    const context: JobContext<unknown> = {
      app: this.app,
      job,
      payload,
      resumed,
      checkpoint: async (value, trx = db) => {
        const text = JSON.stringify(value);
        await recordCheckpoint(trx, job.id, this.id, text);
        checkpoint = text;
      },
      progress: async (fraction) => {
        if (!Number.isFinite(fraction)) return;
        progress = Math.min(1, Math.max(0, fraction));
        const wait = lastWrite + progressIntervalMs - Date.now();
        if (wait <= 0) return write();
        // Throttled: the latest value is written when the interval is over, even if the
        // handler reports nothing more for a long time.
        trailing ??= setTimeout(() => void write(), wait);
      },
      shouldStop: async () => {
        if (stopReason) return true;
        if (this.stopping) {
          stopReason = 'shutdown';
          return true;
        }
        if (Date.now() - lastStopCheck < stopCheckMs) {
          await yieldToEventLoop();
          return stopAnswer;
        }
        lastStopCheck = Date.now();
        stopAnswer = await stopWanted(db, job.id, this.id);
        if (stopAnswer) stopReason = 'user';
        return stopAnswer;
      },
    };

    let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await definition.handler(context) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (trailing) clearTimeout(trailing);
    trailing = null;
    await writing;

    if (!outcome.ok && stopReason !== 'user') {
      this.app.log.error({ err: outcome.error, job: job.id, kind: job.kind }, 'job failed');
    }
    if (stopReason === 'shutdown') {
      const retry = definition.retryOnRestart && job.attempts < MAX_ATTEMPTS;
      await this.end(
        job,
        retry
          ? { status: 'queued' }
          : { status: 'error', error: INTERRUPTED, result: checkpoint, progress },
      );
      return;
    }

    let result: string | null = null;
    if (outcome.ok && outcome.value !== undefined) {
      try {
        result = JSON.stringify(outcome.value) ?? null;
      } catch (error) {
        outcome = {
          ok: false,
          error: new Error(`The job's result is not JSON: ${errorMessage(error)}`),
        };
      }
    }
    if (stopReason === 'user') {
      await this.end(job, { status: 'error', error: STOPPED_BY_USER, result, progress });
    } else if (outcome.ok) {
      await this.end(job, { status: 'processed', result, progress: 1 });
    } else {
      await this.end(job, {
        status: 'error',
        error: errorMessage(outcome.error),
        result: null,
        progress,
      });
    }
  }

  private async end(job: Job, end: JobEnd): Promise<void> {
    if (!(await endJob(this.app.db, job.id, this.id, end))) {
      this.app.log.warn({ job: job.id }, 'job was taken from this runner before it ended');
    }
  }
}
