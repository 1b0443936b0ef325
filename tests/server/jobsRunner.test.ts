import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import {
  INTERRUPTED,
  MAX_ATTEMPTS,
  STOPPED_BY_USER,
  UNKNOWN_KIND,
  claimNextJob,
  defineJob,
  enqueueJob,
  type JobContext,
} from '../../server/jobs/queue';
import { createJobRunner } from '../../server/jobs/runner';
import { Client, createTestUser, describeEachDialect } from './harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Times each job id ran, across runners and apps. */
const runs = new Map<string, number>();
function countRun(id: string) {
  runs.set(id, (runs.get(id) ?? 0) + 1);
}

/** A promise the test awaits until a handler reaches a point, and a way to release a handler. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
let loopStarted = signal();
let gate = signal();

async function storedProgress(app: FastifyInstance, id: string): Promise<number> {
  const row = await app.db
    .selectFrom('jobs')
    .select('progress')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.progress;
}

defineJob<{ n: number }>('test.count', async ({ job, payload }) => {
  countRun(job.id);
  // Lets another runner's claims interleave with this one's.
  await sleep(2);
  return { doubled: payload.n * 2 };
});
defineJob<{ n: number }>(
  'test.count.retry',
  async ({ job }) => {
    countRun(job.id);
    return 'done';
  },
  { retryOnRestart: true },
);
defineJob('test.throw', async ({ job }) => {
  countRun(job.id);
  throw new TypeError('Cannot read the page image');
});
defineJob('test.bigint', async () => ({ n: 1n }));
defineJob('test.progress', async ({ app, job, progress }) => {
  await progress(0.25);
  const first = await storedProgress(app, job.id);
  // A burst inside the throttle interval: only the last value needs to reach the database.
  for (let step = 30; step <= 75; step += 5) await progress(step / 100);
  const duringBurst = await storedProgress(app, job.id);
  let last = duringBurst;
  for (const deadline = Date.now() + 5000; last !== 0.75 && Date.now() < deadline;) {
    await sleep(10);
    last = await storedProgress(app, job.id);
  }
  return { first, duringBurst, last };
});
const loop = async ({ job, progress, shouldStop }: JobContext<unknown>) => {
  countRun(job.id);
  await progress(0.5);
  loopStarted.resolve();
  let iterations = 0;
  // Bounded, so a broken stop fails the test instead of hanging it.
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; iterations += 1) {
    if (await shouldStop()) return { iterations, stopped: true };
  }
  return { iterations, stopped: false };
};
defineJob('test.loop', loop);
defineJob('test.loop.retry', loop, { retryOnRestart: true });
defineJob('test.gate', async ({ job }) => {
  countRun(job.id);
  loopStarted.resolve();
  await gate.promise;
  return 'released';
});

function enqueue(app: FastifyInstance, kind: string, userId: string | null = null, n = 1) {
  return enqueueJob(app.db, {
    kind,
    description: kind,
    userId,
    corpusId: null,
    payload: { n },
  });
}

async function jobRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Makes a job look claimed by a process that died `ageMs` ago. */
async function abandon(app: FastifyInstance, id: string, ageMs: number, attempts = 1) {
  await app.db
    .updateTable('jobs')
    .set({
      status: 'started',
      claimed_by: 'gone-host:4242:dead',
      started_at: new Date(Date.now() - ageMs).toISOString(),
      heartbeat_at: new Date(Date.now() - ageMs).toISOString(),
      attempts,
    })
    .where('id', '=', id)
    .execute();
}

describeEachDialect('job runner', ({ t }) => {
  it('runs a job to processed with its result, and records when', async () => {
    const { app } = t();
    const job = await enqueue(app, 'test.count', null, 21);
    expect(job).toMatchObject({ status: 'queued', progress: 0, started_at: null });
    await app.jobs.drain();
    const row = await jobRow(app, job.id);
    expect(row).toMatchObject({
      status: 'processed',
      progress: 1,
      result: JSON.stringify({ doubled: 42 }),
      error: null,
      claimed_by: app.jobs.id,
      attempts: 1,
    });
    expect(runs.get(job.id)).toBe(1);
    expect(row.enqueued_at <= row.started_at! && row.started_at! <= row.ended_at!).toBe(true);
  });

  it('records progress, throttled, and always writes the latest value', async () => {
    const { app } = t();
    const job = await enqueue(app, 'test.progress');
    await createJobRunner(app, { progressIntervalMs: 300 }).drain();
    const row = await jobRow(app, job.id);
    expect(JSON.parse(row.result!)).toEqual({ first: 0.25, duringBurst: 0.25, last: 0.75 });
    expect(row).toMatchObject({ status: 'processed', progress: 1 });
  });

  it('ends a throwing handler in error with its message, never its stack', async () => {
    const { app } = t();
    const failing = await enqueue(app, 'test.throw');
    const after = await enqueue(app, 'test.count');
    await app.jobs.drain();
    const row = await jobRow(app, failing.id);
    expect(row).toMatchObject({
      status: 'error',
      error: 'Cannot read the page image',
      result: null,
    });
    expect(row.ended_at).not.toBeNull();
    // The queue carries on after a failure.
    expect((await jobRow(app, after.id)).status).toBe('processed');
  });

  it('ends unknown kinds and unstorable results in error', async () => {
    const { app } = t();
    const unknown = await enqueue(app, 'test.never-defined');
    const bigint = await enqueue(app, 'test.bigint');
    await app.jobs.drain();
    expect(await jobRow(app, unknown.id)).toMatchObject({ status: 'error', error: UNKNOWN_KIND });
    const row = await jobRow(app, bigint.id);
    expect(row.status).toBe('error');
    expect(row.error).toMatch(/^The job's result is not JSON/);
  });

  it('stops a started job when its owner deletes it, keeping the partial result', async () => {
    const { app } = t();
    const owner = await createTestUser(app);
    const client = new Client(app, owner.token);
    loopStarted = signal();
    const job = await enqueue(app, 'test.loop', owner.id);
    const draining = app.jobs.drain();
    await loopStarted.promise;

    const listed = (await client.get('jobs/')).json() as { id: string }[];
    expect(listed.find((item) => item.id === job.id)).toMatchObject({
      status: 'started',
      progress: 0.5,
      ended_at: null,
    });
    expect((await client.delete(`jobs/${job.id}/`)).statusCode).toBe(204);
    await draining;

    const detail = (await client.get(`jobs/${job.id}/`)).json();
    expect(detail).toMatchObject({ status: 'error', error: STOPPED_BY_USER, progress: 0.5 });
    expect(detail.result).toMatchObject({ stopped: true });
    expect(detail.ended_at).not.toBeNull();
    expect(runs.get(job.id)).toBe(1);
  });

  it('starts a job as soon as it is enqueued, and interrupts it at shutdown', async () => {
    const { app } = t();
    // A poll far beyond the test timeout: only the enqueue wake-up can start the job in time.
    const runner = createJobRunner(app, { pollMs: 600_000 });
    runner.start();
    await sleep(50);
    loopStarted = signal();
    const plain = await enqueue(app, 'test.loop');
    await loopStarted.promise;
    await runner.stop();
    expect(await jobRow(app, plain.id)).toMatchObject({
      status: 'error',
      error: INTERRUPTED,
      progress: 0.5,
    });

    // A kind that may run again goes back to the queue instead.
    runner.start();
    loopStarted = signal();
    const retried = await enqueue(app, 'test.loop.retry');
    await loopStarted.promise;
    await runner.stop();
    expect(await jobRow(app, retried.id)).toMatchObject({
      status: 'queued',
      claimed_by: null,
      started_at: null,
      progress: 0,
      attempts: 1,
    });
    await app.db.deleteFrom('jobs').where('id', '=', retried.id).execute();
  });

  it('after a crash, ends abandoned jobs in error or re-queues those that may run again', async () => {
    const { app } = t();
    const plain = await enqueue(app, 'test.count');
    const retried = await enqueue(app, 'test.count.retry');
    const exhausted = await enqueue(app, 'test.count.retry');
    const stopped = await enqueue(app, 'test.count.retry');
    const alive = await enqueue(app, 'test.count');
    for (const job of [plain, retried, stopped]) await abandon(app, job.id, 5 * 60_000);
    await abandon(app, exhausted.id, 5 * 60_000, MAX_ATTEMPTS);
    await app.db
      .updateTable('jobs')
      .set({ stop_requested: 1 })
      .where('id', '=', stopped.id)
      .execute();
    // Claimed a moment ago by a process that is still running.
    await abandon(app, alive.id, 1000);

    await app.jobs.drain();
    expect(await jobRow(app, plain.id)).toMatchObject({ status: 'error', error: INTERRUPTED });
    expect(runs.get(plain.id)).toBeUndefined();
    expect(await jobRow(app, retried.id)).toMatchObject({
      status: 'processed',
      attempts: 2,
      claimed_by: app.jobs.id,
    });
    expect(runs.get(retried.id)).toBe(1);
    expect(await jobRow(app, exhausted.id)).toMatchObject({ status: 'error', error: INTERRUPTED });
    expect(await jobRow(app, stopped.id)).toMatchObject({
      status: 'error',
      error: STOPPED_BY_USER,
    });
    expect(await jobRow(app, alive.id)).toMatchObject({
      status: 'started',
      claimed_by: 'gone-host:4242:dead',
    });
    await app.db.deleteFrom('jobs').where('id', '=', alive.id).execute();
  });

  it("keeps a long job's heartbeat fresh, so other runners do not take it for abandoned", async () => {
    const { app } = t();
    const timing = { heartbeatMs: 20, staleAfterMs: 150 };
    const owner = createJobRunner(app, timing);
    const other = createJobRunner(app, timing);
    loopStarted = signal();
    gate = signal();
    const job = await enqueue(app, 'test.gate');
    const draining = owner.drain();
    await loopStarted.promise;
    await sleep(300);
    await other.drain();
    expect(await jobRow(app, job.id)).toMatchObject({ status: 'started', claimed_by: owner.id });
    gate.resolve();
    await draining;
    expect(await jobRow(app, job.id)).toMatchObject({ status: 'processed', result: '"released"' });
  });
});

describeEachDialect('job queue shared by two server processes', ({ t }) => {
  let second: FastifyInstance;
  beforeAll(async () => {
    // The same database as the first app: its SQLite file, or its PostgreSQL schema.
    second = await buildApp(t().config, { mailer: { send: async () => {} } });
  });
  afterAll(async () => {
    await second?.close();
  });

  it('never gives one job to two claimers', async () => {
    const { app } = t();
    const jobs = await Promise.all(
      Array.from({ length: 10 }, (_, n) => enqueue(app, 'test.count', null, n)),
    );
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        claimNextJob(n % 2 ? app.db : second.db, app.dialect, `claimer-${n % 3}`),
      ),
    );
    const claimed = claims.filter((job) => job !== null).map((job) => job.id);
    expect(claimed.sort()).toEqual(jobs.map((job) => job.id).sort());
    await app.db.deleteFrom('jobs').execute();
  });

  it('runs each job once when both drain the queue at the same time', async () => {
    const { app } = t();
    const jobs = await Promise.all(
      Array.from({ length: 16 }, (_, n) => enqueue(second, 'test.count', null, n)),
    );
    await Promise.all([app.jobs.drain(), second.jobs.drain()]);
    const rows = await app.db.selectFrom('jobs').selectAll().execute();
    expect(rows).toHaveLength(16);
    for (const row of rows) {
      expect(row.status).toBe('processed');
      expect([app.jobs.id, second.jobs.id]).toContain(row.claimed_by);
    }
    for (const job of jobs) expect(runs.get(job.id)).toBe(1);
  });

  it('runs jobs in the background once a server listens', async () => {
    const { app } = t();
    await second.listen({ port: 0, host: '127.0.0.1' });
    const job = await enqueue(app, 'test.count', null, 5);
    let row = await jobRow(app, job.id);
    for (const deadline = Date.now() + 5000; row.status !== 'processed' && Date.now() < deadline;) {
      await sleep(10);
      row = await jobRow(app, job.id);
    }
    expect(row).toMatchObject({ status: 'processed', claimed_by: second.jobs.id });
  });
});
