import { expect, it } from 'vitest';
import { describeEachDialect } from '../server/harness';
import { defaultFarm } from '../server/tasks/fixtures';
import { useAgentSuite } from './setup';

describeEachDialect('A process started through the API', ({ t }) => {
  const suite = useAgentSuite(t);

  it('runs on an agent: the No-op worker processes every element of both chunks', async () => {
    const app = t().app;
    const pages = await suite.pages('Started page', 5);
    const noop = await app.db
      .selectFrom('worker_versions')
      .innerJoin('workers', 'workers.id', 'worker_versions.worker_id')
      .select('worker_versions.id')
      .where('workers.slug', '=', 'noop')
      .where('worker_versions.state', '=', 'available')
      .executeTakeFirstOrThrow();
    const created = await suite.owner.post('process/corpus/', {
      corpus: suite.corpusId,
      name: 'Nothing, twice',
      element_type: 'page',
      load_children: 'all',
    });
    expect(created.statusCode).toBe(201);
    const processId = created.json().id as string;
    const run = await suite.owner.post(`process/${processId}/workers/`, {
      worker_version_id: noop.id,
      parents: [],
    });
    expect(run.statusCode).toBe(201);
    const farm = await defaultFarm(app);
    const started = await suite.owner.post(`process/${processId}/start/`, {
      farm: farm.id,
      chunks: 2,
    });
    expect(started.statusCode).toBe(201);
    const tasks = started.json().tasks as { id: string; slug: string }[];
    expect(tasks.map((task) => task.slug).sort()).toEqual(['noop_1', 'noop_2']);

    suite.agent({ farmToken: farm.token, slots: 2 });
    for (const task of tasks) {
      const done = await suite.until(task.id, ['completed', 'failed', 'error'], 60_000);
      expect(done.state).toBe('completed');
    }
    const process = await suite.owner.get(`process/${processId}/`);
    expect(process.json().state).toBe('completed');
    const stats = await suite.owner.get(`process/${processId}/activity-stats/`);
    expect(stats.json()).toEqual({
      queued: 0,
      started: 0,
      processed: pages.length,
      error: 0,
    });
  }, 90_000);
});
