import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, Client } from '../harness';
import { makeActorsAndProjects, type Actors } from '../actors';
import { insertElements } from '../elementsFixtures';
import { NOT_AUTHENTICATED } from '../expectedErrors';
import {
  claim,
  defaultFarm,
  finish,
  makeProcess,
  processState,
  registerAgent,
  taskRow,
} from '../tasks/fixtures';

const INVALID_TOKEN = {
  type: 'client_error',
  errors: [{ code: 'authentication_failed', detail: 'Invalid token.', attr: null }],
};

describeEachDialect('Agents and farms', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  beforeAll(async () => {
    const made = await makeActorsAndProjects(t().app);
    actors = made.actors;
    corpusId = made.privateId;
  });

  const post = (url: string, headers: Record<string, string>, payload: unknown) =>
    t().app.inject({ method: 'POST', url: `/api/v1/${url}`, headers, payload: payload as object });

  describe('register', () => {
    it('gives an agent its token and farm with the farm token', async () => {
      const farm = await defaultFarm(t().app);
      const response = await post(
        'ponos/agent/register/',
        { authorization: `Farm ${farm.token}` },
        { hostname: 'box', slots: 3, cpu_cores: 8, ram_total: 16e9, gpus: 1 },
      );
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body.farm).toEqual({ id: farm.id, name: 'Default farm' });
      expect(body.token).toMatch(/^[0-9a-f]{64}$/);
      const row = await t()
        .app.db.selectFrom('agents')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ hostname: 'box', slots: 3, cpu_cores: 8, gpus: 1 });
      // Only the hash is kept.
      expect(row.token_hash).not.toBe(body.token);
    });

    it('refuses a wrong or missing farm token with 401 and registers nothing', async () => {
      const before = await t().app.db.selectFrom('agents').select('id').execute();
      const wrong = await post(
        'ponos/agent/register/',
        { authorization: 'Farm not-the-token' },
        { hostname: 'x', slots: 1 },
      );
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual(INVALID_TOKEN);
      const none = await post('ponos/agent/register/', {}, { hostname: 'x', slots: 1 });
      expect(none.statusCode).toBe(401);
      expect((await t().app.db.selectFrom('agents').select('id').execute()).length).toBe(
        before.length,
      );
    });

    it('refuses a body without slots with 400', async () => {
      const farm = await defaultFarm(t().app);
      const response = await post(
        'ponos/agent/register/',
        { authorization: `Farm ${farm.token}` },
        { hostname: 'x', slots: 0 },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].attr).toBe('slots');
    });

    it('refuses agent calls with an unknown agent token', async () => {
      const response = await post(
        'ponos/agent/claim/',
        { authorization: 'Agent 0000' },
        { slots: 1 },
      );
      expect(response.statusCode).toBe(401);
    });
  });

  describe('claim', () => {
    it('hands the oldest pending worker tasks with what the agent needs to run them', async () => {
      const app = t().app;
      const ids = await insertElements(app, corpusId, [
        { name: 'Page 1', type: 'page' },
        { name: 'Page 2', type: 'page' },
      ]);
      const made = await makeProcess(app, corpusId, actors.owner.id, [
        { slug: 'first', elements: [ids['Page 2']!, ids['Page 1']!] },
        { slug: 'second', state: 'unscheduled', parents: ['first'] },
      ]);
      const agent = await registerAgent(app, made.farm, 'claimer');
      const tasks = await claim(app, agent, 5);
      const mine = tasks.filter((task) => task.process_id === made.processId);
      expect(mine).toHaveLength(1);
      const [task] = mine;
      expect(task).toMatchObject({
        id: made.tasks.first,
        corpus_id: corpusId,
        worker_run_id: made.workerRunId,
        slug: 'first',
        run: 0,
        chunk: null,
        command: ['node', '{folia}/worker.js'],
        elements: [
          { id: ids['Page 2'], type: 'page' },
          { id: ids['Page 1'], type: 'page' },
        ],
        env: {
          ARKINDEX_TASK_TOKEN: task!.token,
          ARKINDEX_TASK_ID: made.tasks.first,
          ARKINDEX_PROCESS_ID: made.processId,
          ARKINDEX_WORKER_RUN_ID: made.workerRunId,
          ARKINDEX_CORPUS_ID: corpusId,
        },
      });
      const row = await taskRow(app, made.tasks.first!);
      expect(row).toMatchObject({ state: 'running', agent_id: agent.id, attempts: 1 });
      expect(row.started).not.toBeNull();
      expect(await processState(app, made.processId)).toBe('running');

      // Completing it schedules its child, which the next claim gets.
      const done = await finish(app, agent, made.tasks.first!, 'completed');
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ state: 'completed' });
      expect((await taskRow(app, made.tasks.second!)).state).toBe('pending');
      const next = await claim(app, agent, 5);
      expect(next.map((item) => item.id)).toContain(made.tasks.second);
      await finish(app, agent, made.tasks.second!, 'completed');
      expect(await processState(app, made.processId)).toBe('completed');
      const finished = await taskRow(app, made.tasks.second!);
      expect(finished.finished).not.toBeNull();
      expect(finished.token_hash).toBeNull();
    });

    it('never claims an import task nor one of another farm', async () => {
      const app = t().app;
      const elsewhere = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'far' }]);
      const imported = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'import' }]);
      await app.db
        .updateTable('tasks')
        .set({ kind: 'import' })
        .where('id', '=', imported.tasks.import!)
        .execute();
      const agent = await registerAgent(app, imported.farm, 'picky');
      expect(await claim(app, agent, 50)).toEqual([]);
      expect((await taskRow(app, elsewhere.tasks.far!)).state).toBe('pending');
      expect((await taskRow(app, imported.tasks.import!)).state).toBe('pending');
    });

    it('ends a task whose worker version has no command in error, with a log line', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'nothing' }], {
        command: null,
      });
      const agent = await registerAgent(app, made.farm, 'no-command');
      expect(await claim(app, agent, 50)).toEqual([]);
      const row = await taskRow(app, made.tasks.nothing!);
      expect(row.state).toBe('error');
      expect(row.logs).toBe('This worker version has no command to run.\n');
      expect(await processState(app, made.processId)).toBe('error');
    });

    it('gives each task to one agent only when agents claim at once', async () => {
      const app = t().app;
      const specs = Array.from({ length: 40 }, (_, index) => ({ slug: `chunk_${index}` }));
      const made = await makeProcess(app, corpusId, actors.owner.id, specs);
      const agents = await Promise.all(
        Array.from({ length: 4 }, (_, index) => registerAgent(app, made.farm, `racer-${index}`)),
      );
      const claims = await Promise.all(
        agents.flatMap((agent) => [claim(app, agent, 7), claim(app, agent, 7)]),
      );
      const ids = claims.flat().map((task) => task.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(40);
      const rows = await app.db
        .selectFrom('tasks')
        .select(['state', 'attempts'])
        .where('process_id', '=', made.processId)
        .execute();
      expect(rows.every((row) => row.state === 'running' && row.attempts === 1)).toBe(true);
    });
  });

  describe('calls on a task', () => {
    it('lets only the claiming agent append logs and end the task', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [
        { slug: 'owned' },
        { slug: 'child', state: 'unscheduled', parents: ['owned'] },
      ]);
      const holder = await registerAgent(app, made.farm, 'holder', 50);
      const other = await registerAgent(app, made.farm, 'other');
      await claim(app, holder, 50);
      const id = made.tasks.owned!;

      const foreignLog = await app.inject({
        method: 'POST',
        url: `/api/v1/ponos/task/${id}/logs/`,
        headers: { ...other.headers, 'content-type': 'text/plain' },
        payload: 'intruder\n',
      });
      expect(foreignLog.statusCode).toBe(403);
      const foreignEnd = await finish(app, other, id, 'completed');
      expect(foreignEnd.statusCode).toBe(403);
      expect((await taskRow(app, id)).state).toBe('running');

      const log = await app.inject({
        method: 'POST',
        url: `/api/v1/ponos/task/${id}/logs/`,
        headers: { ...holder.headers, 'content-type': 'text/plain' },
        payload: 'line 1\nline 2\n',
      });
      expect(log.statusCode).toBe(204);
      expect((await taskRow(app, id)).logs).toBe('line 1\nline 2\n');

      const bad = await finish(app, holder, id, 'running');
      expect(bad.statusCode).toBe(400);
      const failed = await finish(app, holder, id, 'failed');
      expect(failed.statusCode).toBe(200);
      expect((await taskRow(app, made.tasks.child!)).state).toBe('cancelled');
      expect(await processState(app, made.processId)).toBe('failed');
      // A finished task is no longer the agent's.
      expect((await finish(app, holder, id, 'completed')).statusCode).toBe(403);
    });

    it('tells the agent in its heartbeat which tasks to kill', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [
        { slug: 'keep' },
        { slug: 'kill' },
      ]);
      const agent = await registerAgent(app, made.farm, 'beating', 50);
      await claim(app, agent, 50);
      const owner = new Client(app, actors.owner.token);
      const stop = await owner.patch(`task/${made.tasks.kill}/`, { state: 'stopping' });
      expect(stop.statusCode).toBe(200);
      expect(stop.json().state).toBe('stopping');

      const before = (
        await app.db
          .selectFrom('agents')
          .select('last_ping')
          .where('id', '=', agent.id)
          .executeTakeFirstOrThrow()
      ).last_ping;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const beat = await post('ponos/agent/heartbeat/', agent.headers, {
        running: [made.tasks.keep, made.tasks.kill],
      });
      expect(beat.statusCode).toBe(200);
      expect(beat.json().stop).toEqual([made.tasks.kill]);
      const after = (
        await app.db
          .selectFrom('agents')
          .select('last_ping')
          .where('id', '=', agent.id)
          .executeTakeFirstOrThrow()
      ).last_ping;
      expect(after > before).toBe(true);

      const stopped = await finish(app, agent, made.tasks.kill!, 'stopped');
      expect(stopped.json().state).toBe('stopped');
      const again = await post('ponos/agent/heartbeat/', agent.headers, {
        running: [made.tasks.keep],
      });
      expect(again.json().stop).toEqual([]);
    });
  });

  describe('lists', () => {
    it('lists farms to anyone logged in, and not anonymously', async () => {
      const app = t().app;
      const list = await new Client(app, actors.guest.token).get('farms/');
      expect(list.statusCode).toBe(200);
      expect(list.json().results).toContainEqual({
        id: (await defaultFarm(app)).id,
        name: 'Default farm',
      });
      const anonymous = await new Client(app).get('farms/');
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(NOT_AUTHENTICATED);
    });

    it('lists agents and their running tasks to site admins only', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'shown' }]);
      const agent = await registerAgent(app, made.farm, 'listed', 50);
      await claim(app, agent, 50);
      const admin = new Client(app, actors.siteAdmin.token);
      const list = await admin.get('agents/?page_size=500');
      expect(list.statusCode).toBe(200);
      const listed = list.json().results.find((item: { id: string }) => item.id === agent.id);
      expect(listed).toMatchObject({
        hostname: 'listed',
        farm: { id: made.farm.id },
        active: true,
        slots: 50,
      });
      expect(listed.running_tasks).toBeGreaterThanOrEqual(1);
      const detail = await admin.get(`agent/${agent.id}/`);
      expect(detail.statusCode).toBe(200);
      expect(detail.json().running.map((task: { id: string }) => task.id)).toContain(
        made.tasks.shown,
      );
      expect((await new Client(app, actors.owner.token).get('agents/')).statusCode).toBe(403);
      expect((await admin.get('agent/not-a-uuid/')).statusCode).toBe(404);
    });

    it("shows each agent's CPU load and memory as its last heartbeat reported them", async () => {
      const app = t().app;
      const farm = await defaultFarm(app);
      const agent = await registerAgent(app, farm, 'reporting', 4);
      const admin = new Client(app, actors.siteAdmin.token);
      const listed = async () =>
        (await admin.get('agents/?page_size=500'))
          .json()
          .results.find((item: { id: string }) => item.id === agent.id);
      // Nothing said yet: nothing shown rather than a made-up zero.
      expect(await listed()).toMatchObject({ cpu_load: null, ram_used: null });

      const beat = (body: unknown) => post('ponos/agent/heartbeat/', agent.headers, body);
      expect((await beat({ running: [], cpu_load: 0.5, ram_used: 3e9 })).statusCode).toBe(200);
      expect(await listed()).toMatchObject({ cpu_load: 0.5, ram_used: 3e9 });
      expect((await beat({ running: [], cpu_load: 1.25, ram_used: 4e9 })).statusCode).toBe(200);
      expect(await listed()).toMatchObject({ cpu_load: 1.25, ram_used: 4e9 });
      // An older agent's beat without them keeps the last reading.
      expect((await beat({ running: [] })).statusCode).toBe(200);
      expect(await listed()).toMatchObject({ cpu_load: 1.25, ram_used: 4e9 });
      expect((await admin.get(`agent/${agent.id}/`)).json()).toMatchObject({ cpu_load: 1.25 });

      for (const [attr, body] of [
        ['cpu_load', { cpu_load: -1, ram_used: 1 }],
        ['cpu_load', { cpu_load: 'high', ram_used: 1 }],
        ['ram_used', { cpu_load: 0.1, ram_used: 1.5 }],
      ] as const) {
        const refused = await beat({ running: [], ...body });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().errors[0].attr).toBe(attr);
      }
      expect(await listed()).toMatchObject({ cpu_load: 1.25, ram_used: 4e9 });
    });
  });
});
