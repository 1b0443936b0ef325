/**
 * A populate cut short: its server killed (SIGKILL, a real process) or stopped in the middle.
 * The dataset must end in 'error', never stay 'building', and the elements already in it stay
 * in one set each.
 */
import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { INTERRUPTED, STOPPED_BY_USER } from '../../../server/jobs/queue';
import { createJobRunner } from '../../../server/jobs/runner';
import { createElements } from '../../../server/services/elements/create';
import { Client, createTestUser, describeEachDialect } from '../harness';
import { startChildServer, killChildServer, until } from '../childProcess';
import { insertElements, typeIds } from '../elementsFixtures';

const PAGES = 30_000;

/** Once a first batch is in the dataset (each batch commits on its own). */
async function underWay(app: FastifyInstance, datasetId: string) {
  await until('the job to be under way', async () => {
    const row = await app.db
      .selectFrom('dataset_elements')
      .innerJoin('dataset_sets', 'dataset_sets.id', 'dataset_elements.set_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('dataset_sets.dataset_id', '=', datasetId)
      .executeTakeFirstOrThrow();
    return Number(row.n) > 0 ? true : null;
  });
}

async function jobRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A project of PAGES pages and an open dataset in it. */
async function bigProject(app: FastifyInstance, label: string) {
  const owner = await createTestUser(app);
  const client = new Client(app, owner.token);
  const corpus = await client.post('corpus/', { name: label });
  const corpusId = corpus.json().id as string;
  const types = await typeIds(app, corpusId);
  const { folder } = await insertElements(app, corpusId, [{ name: 'folder', type: 'folder' }]);
  await app.db.transaction().execute((trx) =>
    createElements(
      trx,
      Array.from({ length: PAGES }, (_, i) => ({
        corpusId,
        typeId: types.page!,
        name: `page ${i}`,
        parentId: folder!,
      })),
    ),
  );
  const dataset = await client.post(`corpus/${corpusId}/datasets/`, {
    name: label,
    description: 'x',
  });
  const body = {
    types: ['page'],
    count: PAGES,
    sets: { train: 0.8, dev: 0.1, test: 0.1 },
    parent_id: folder,
  };
  return { owner, client, datasetId: dataset.json().id as string, body };
}

async function expectInError(client: Client, datasetId: string) {
  const dataset = (await client.get(`datasets/${datasetId}/`)).json();
  expect(dataset.state).toBe('error');
  const counts = Object.values(dataset.set_elements as Record<string, number>);
  const total = counts.reduce((sum, n) => sum + n, 0);
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThan(PAGES);
  // Each element in one set: the sets' counts add up to the distinct elements listed.
  const listed = await client.get(`datasets/${datasetId}/elements/?page_size=1&with_count=true`);
  expect(listed.json().count).toBe(total);
}

describeEachDialect('a populate cut short', ({ t }) => {
  it('ends the dataset in error when its server is killed mid-job and another starts', async () => {
    const { app, config } = t();
    const { owner, client, datasetId, body } = await bigProject(app, 'Killed');
    const first = await startChildServer(config);
    let jobId = '';
    try {
      const response = await fetch(`${first.url}/api/v1/datasets/${datasetId}/populate/`, {
        method: 'POST',
        headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(202);
      jobId = ((await response.json()) as { job: { id: string } }).job.id;
      await underWay(app, datasetId);
    } finally {
      await killChildServer(first);
    }
    expect((await client.get(`datasets/${datasetId}/`)).json().state).toBe('building');

    const second = await startChildServer(config);
    try {
      const state = await until('the dataset to leave building', async () => {
        const answer = await fetch(`${second.url}/api/v1/datasets/${datasetId}/`, {
          headers: { authorization: `Token ${owner.token}` },
        });
        const { state } = (await answer.json()) as { state: string };
        return state === 'building' ? null : state;
      });
      expect(state).toBe('error');
    } finally {
      await killChildServer(second);
    }
    expect(await jobRow(app, jobId)).toMatchObject({ status: 'error', error: INTERRUPTED });
    await expectInError(client, datasetId);
  }, 180_000);

  it('ends the dataset in error when its server stops mid-job', async () => {
    const { app } = t();
    const { client, datasetId, body } = await bigProject(app, 'Stopped');
    // The job is queued in the transaction that marks the dataset building: on PostgreSQL the
    // runner's wake-up comes before the commit, so the next poll is the one that finds it.
    const runner = createJobRunner(app, { pollMs: 50 });
    runner.start();
    const response = await client.post(`datasets/${datasetId}/populate/`, body);
    expect(response.statusCode).toBe(202);
    const jobId = response.json().job.id as string;
    await underWay(app, datasetId);
    await runner.stop();
    expect(await jobRow(app, jobId)).toMatchObject({ status: 'error', error: INTERRUPTED });
    await expectInError(client, datasetId);
  }, 180_000);

  it('ends the dataset in error when its owner stops the job', async () => {
    const { app } = t();
    const { client, datasetId, body } = await bigProject(app, 'Cancelled');
    const runner = createJobRunner(app, { pollMs: 50, stopCheckMs: 0 });
    runner.start();
    try {
      const response = await client.post(`datasets/${datasetId}/populate/`, body);
      const jobId = response.json().job.id as string;
      await underWay(app, datasetId);
      expect((await client.delete(`jobs/${jobId}/`)).statusCode).toBe(204);
      const job = await until('the job to end', async () => {
        const row = await jobRow(app, jobId);
        return row.status === 'started' ? null : row;
      });
      expect(job).toMatchObject({ status: 'error', error: STOPPED_BY_USER });
      expect(JSON.parse(job.result!).count).toBeGreaterThan(0);
    } finally {
      await runner.stop();
    }
    await expectInError(client, datasetId);
  }, 180_000);
});
