/**
 * Processes as they are found days later: a run that ended last week, by an agent that has not
 * called since, is listed with its own dates, left alone by the lost-agent sweep, and its failed
 * task restarted or the whole process retried today with today's dates. Dates only bite on rows
 * that are days old: a sweep comparing with the wrong date, or a `finished` taken from last
 * week's tasks, passes on rows made a second ago.
 */
import { beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { claim, finish, makeFarm, registerAgent } from '../tasks/fixtures';
import { addRun, createProcess, makeTree, makeVersion, type TaskJson } from './fixtures';

const DAYS = 3;
const shifted = (iso: string | null) =>
  iso === null ? null : new Date(Date.parse(iso) - DAYS * 24 * 3600_000).toISOString();

/** Dates everything of the process and the agent as `DAYS` days earlier. */
async function age(app: FastifyInstance, processId: string, agentId: string) {
  const process = await app.db
    .selectFrom('processes')
    .selectAll()
    .where('id', '=', processId)
    .executeTakeFirstOrThrow();
  await app.db
    .updateTable('processes')
    .set({
      created: shifted(process.created)!,
      updated: shifted(process.updated),
      started: shifted(process.started),
      finished: shifted(process.finished),
    })
    .where('id', '=', processId)
    .execute();
  const tasks = await app.db
    .selectFrom('tasks')
    .selectAll()
    .where('process_id', '=', processId)
    .execute();
  for (const task of tasks) {
    await app.db
      .updateTable('tasks')
      .set({
        created: shifted(task.created)!,
        updated: shifted(task.updated)!,
        started: shifted(task.started),
        finished: shifted(task.finished),
      })
      .where('id', '=', task.id)
      .execute();
  }
  const agent = await app.db
    .selectFrom('agents')
    .selectAll()
    .where('id', '=', agentId)
    .executeTakeFirstOrThrow();
  await app.db
    .updateTable('agents')
    .set({ last_ping: shifted(agent.last_ping)!, created: shifted(agent.created)! })
    .where('id', '=', agentId)
    .execute();
}

interface ProcessJson {
  id: string;
  state: string;
  created: string;
  started: string | null;
  finished: string | null;
  tasks: (TaskJson & { created: string; original_task_id: string | null })[];
}

describeEachDialect('processes found days later', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId } = await makeActorsAndProjects(t().app));
    await makeTree(t().app, privateId);
  });

  it('are listed with their dates, left alone by the sweep, restarted and retried today', async () => {
    const app = t().app;
    const owner = as('owner');
    const farm = await makeFarm(app);
    const process = await createProcess(owner, privateId, {
      name: 'Last week',
      load_children: 'all',
      element_type: 'page',
    });
    const { versionId } = await makeVersion(app);
    await addRun(owner, process.id, versionId);
    const started = await owner.post(`process/${process.id}/start/`, { farm: farm.id, chunks: 2 });
    expect(started.statusCode, started.body).toBe(201);

    // Last week, an agent ran both chunks: one completed, one failed.
    const gone = await registerAgent(app, farm, 'last-weeks-agent', 2);
    const [first, second] = await claim(app, gone, 2);
    expect((await finish(app, gone, first!.id, 'completed')).statusCode).toBe(200);
    expect((await finish(app, gone, second!.id, 'failed')).statusCode).toBe(200);
    const then = (await owner.get(`process/${process.id}/`)).json<ProcessJson>();
    expect(then.state).toBe('failed');
    await age(app, process.id, gone.id);
    const aged = (await owner.get(`process/${process.id}/`)).json<ProcessJson>();
    expect(aged.created).toBe(shifted(then.created));
    expect(aged.finished).toBe(shifted(then.finished));

    // The list shows it as it was, among the started processes of its project.
    const listed = await owner.get(`process/?corpus=${privateId}&started=true`);
    const item = listed
      .json<{ results: ProcessJson[] }>()
      .results.find((row) => row.id === process.id);
    expect(item).toMatchObject({
      state: 'failed',
      created: aged.created,
      started: aged.started,
      finished: aged.finished,
    });

    // Today's agent claims: the sweep finds last week's agent silent, and its finished tasks
    // stay as they ended.
    const today = await registerAgent(app, farm, 'todays-agent', 2);
    expect(await claim(app, today, 2)).toEqual([]);
    const swept = (await owner.get(`process/${process.id}/`)).json<ProcessJson>();
    expect(swept.tasks.map((task) => task.state).sort()).toEqual(['completed', 'failed']);
    expect(swept.state).toBe('failed');
    expect(swept.finished).toBe(aged.finished);

    // The failed chunk restarted today runs today; the process ends today, not last week.
    const restartStarted = Date.now();
    const restarted = await owner.post(`task/${second!.id}/restart/`);
    expect(restarted.statusCode, restarted.body).toBe(201);
    const copy = restarted.json<{ id: string; state: string; created: string }>();
    expect(copy.state).toBe('pending');
    expect(Date.parse(copy.created)).toBeGreaterThanOrEqual(restartStarted - 1000);
    expect((await owner.get(`process/${process.id}/`)).json<ProcessJson>()).toMatchObject({
      state: 'pending',
      finished: null,
    });
    const [rerun] = await claim(app, today, 2);
    expect(rerun?.id).toBe(copy.id);
    expect((await finish(app, today, copy.id, 'completed')).statusCode).toBe(200);
    const done = (await owner.get(`process/${process.id}/`)).json<ProcessJson>();
    expect(done.state).toBe('completed');
    expect(Date.parse(done.finished!)).toBeGreaterThanOrEqual(restartStarted - 1000);

    // Retried today: a new run, started today.
    const retryStarted = Date.now();
    const retried = await owner.post(`process/${process.id}/retry/`);
    expect(retried.statusCode, retried.body).toBe(201);
    const body = retried.json<ProcessJson>();
    expect(body.state).toBe('pending');
    expect(body.finished).toBeNull();
    expect(Date.parse(body.started!)).toBeGreaterThanOrEqual(retryStarted - 1000);
    const newRun = body.tasks.filter((task) => task.run === 1);
    expect(newRun).toHaveLength(2);
    for (const task of newRun) {
      expect(Date.parse(task.created)).toBeGreaterThanOrEqual(retryStarted - 1000);
    }
    // Last week's tasks keep last week's dates.
    for (const task of body.tasks.filter((row) => row.run === 0 && !row.original_task_id)) {
      expect(Date.parse(task.created)).toBeLessThan(retryStarted - (DAYS - 1) * 24 * 3600_000);
    }
  });
});
