import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { enqueueJob, defineJob } from '../../server/jobs/queue';
import { Client, createTestUser, describeEachDialect } from './harness';

defineJob<{ text: string }>('test.api.echo', async ({ payload }) => ({ echo: payload.text }));
defineJob('test.api.fail', async () => {
  throw new Error('No such page: 12');
});

function enqueue(app: FastifyInstance, userId: string | null, kind = 'test.api.echo') {
  return enqueueJob(app.db, {
    kind,
    description: `Job of ${userId ?? 'nobody'}`,
    userId,
    corpusId: null,
    payload: { text: 'hello' },
  });
}

async function jobRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

describeEachDialect('jobs API', ({ t }) => {
  it('refuses anonymous callers with 401 and unverified ones with 403', async () => {
    const { app } = t();
    const anonymous = await new Client(app).get('jobs/');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'not_authenticated',
          detail: 'Authentication credentials were not provided.',
          attr: null,
        },
      ],
    });
    const unverified = await createTestUser(app, { verified: false });
    const response = await new Client(app, unverified.token).get('jobs/');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      type: 'client_error',
      errors: [{ code: 'permission_denied', attr: null }],
    });
  });

  it("lists only the caller's jobs, newest first, with the spec's fields", async () => {
    const { app } = t();
    const owner = await createTestUser(app);
    const other = await createTestUser(app);
    const older = await enqueue(app, owner.id);
    const newer = await enqueue(app, owner.id);
    await enqueue(app, other.id);
    await enqueue(app, null);
    // Distinct times, so the order is the list's and not the insertion's.
    await app.db
      .updateTable('jobs')
      .set({ enqueued_at: '2024-01-01T00:00:00.000Z' })
      .where('id', '=', older.id)
      .execute();
    await app.db
      .updateTable('jobs')
      .set({ enqueued_at: '2024-01-02T00:00:00.000Z' })
      .where('id', '=', newer.id)
      .execute();

    const response = await new Client(app, owner.token).get('jobs/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      {
        id: newer.id,
        description: `Job of ${owner.id}`,
        status: 'queued',
        progress: 0,
        enqueued_at: '2024-01-02T00:00:00.000Z',
        started_at: null,
        ended_at: null,
      },
      {
        id: older.id,
        description: `Job of ${owner.id}`,
        status: 'queued',
        progress: 0,
        enqueued_at: '2024-01-01T00:00:00.000Z',
        started_at: null,
        ended_at: null,
      },
    ]);

    await app.jobs.drain();
    const after = (await new Client(app, owner.token).get('jobs/')).json() as {
      status: string;
      progress: number;
      started_at: string | null;
      ended_at: string | null;
    }[];
    for (const job of after) {
      expect(job).toMatchObject({ status: 'processed', progress: 1 });
      expect(Date.parse(job.started_at!)).toBeLessThanOrEqual(Date.parse(job.ended_at!));
    }
  });

  it('shows one job with its result or error to its owner', async () => {
    const { app } = t();
    const owner = await createTestUser(app);
    const done = await enqueue(app, owner.id);
    const failed = await enqueue(app, owner.id, 'test.api.fail');
    await app.jobs.drain();
    const client = new Client(app, owner.token);

    const ok = await client.get(`jobs/${done.id}/`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      id: done.id,
      kind: 'test.api.echo',
      corpus_id: null,
      status: 'processed',
      progress: 1,
      result: { echo: 'hello' },
      error: null,
    });
    const ko = (await client.get(`jobs/${failed.id.toUpperCase()}/`)).json();
    expect(ko).toMatchObject({ status: 'error', result: null, error: 'No such page: 12' });
  });

  it("answers 404 for another user's job, unknown ids and non-UUID ids; admins see any job", async () => {
    const { app } = t();
    const owner = await createTestUser(app);
    const stranger = new Client(app, (await createTestUser(app)).token);
    const job = await enqueue(app, owner.id);

    for (const response of [
      await stranger.get(`jobs/${job.id}/`),
      await stranger.delete(`jobs/${job.id}/`),
      await stranger.get('jobs/00000000-0000-4000-8000-000000000000/'),
      await stranger.get('jobs/not-a-uuid/'),
      await stranger.delete('jobs/not-a-uuid/'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        type: 'client_error',
        errors: [{ code: 'not_found', detail: 'Not found.', attr: null }],
      });
    }
    expect(await jobRow(app, job.id)).toBeDefined();
    expect((await stranger.get('jobs/')).json()).toEqual([]);

    const admin = new Client(app, (await createTestUser(app, { admin: true })).token);
    expect((await admin.get(`jobs/${job.id}/`)).statusCode).toBe(200);
    // The list stays the caller's own, admins included.
    expect((await admin.get('jobs/')).json()).toEqual([]);
    expect((await admin.delete(`jobs/${job.id}/`)).statusCode).toBe(204);
    expect(await jobRow(app, job.id)).toBeUndefined();
  });

  it('deletes a queued job, which then never runs, and an ended job', async () => {
    const { app } = t();
    const owner = await createTestUser(app);
    const client = new Client(app, owner.token);
    const ended = await enqueue(app, owner.id);
    await app.jobs.drain();
    const queued = await enqueue(app, owner.id, 'test.api.fail');

    expect((await client.delete(`jobs/${queued.id}/`)).statusCode).toBe(204);
    expect((await client.delete(`jobs/${ended.id}/`)).statusCode).toBe(204);
    await app.jobs.drain();
    expect(await jobRow(app, queued.id)).toBeUndefined();
    expect(await jobRow(app, ended.id)).toBeUndefined();
    expect((await client.get('jobs/')).json()).toEqual([]);
  });

  it('checks the CSRF token when a session deletes a job', async () => {
    const { app } = t();
    const owner = await createTestUser(app);
    const job = await enqueue(app, owner.id);
    const browser = await new Client(app).prime();
    const login = await browser.post('user/login/', {
      email: owner.email,
      password: owner.password,
    });
    expect(login.statusCode).toBe(200);
    const forged = await browser.delete(`jobs/${job.id}/`, undefined, { 'x-csrftoken': 'forged' });
    expect(forged.statusCode).toBe(403);
    expect(await jobRow(app, job.id)).toBeDefined();
    expect((await browser.delete(`jobs/${job.id}/`)).statusCode).toBe(204);
  });
});
