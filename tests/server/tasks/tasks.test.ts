import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, Client } from '../harness';
import { makeActorsAndProjects, type Actors } from '../actors';
import { NOT_ADMIN, NOT_FOUND } from '../expectedErrors';
import { claim, finish, makeProcess, processState, registerAgent, taskRow } from './fixtures';

describeEachDialect('Tasks', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  beforeAll(async () => {
    const made = await makeActorsAndProjects(t().app);
    actors = made.actors;
    corpusId = made.privateId;
  });
  const as = (role: keyof Actors | 'anonymous') =>
    new Client(t().app, role === 'anonymous' ? null : actors[role].token);

  describe('retrieve', () => {
    it('shows a task with its logs to readers of the project, 404 to others', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'shown' }]);
      const id = made.tasks.shown!;
      await app.db.updateTable('tasks').set({ logs: 'hello\n' }).where('id', '=', id).execute();
      const guest = await as('guest').get(`task/${id}/`);
      expect(guest.statusCode).toBe(200);
      expect(guest.json()).toMatchObject({
        id,
        process_id: made.processId,
        slug: 'shown',
        state: 'pending',
        logs: 'hello\n',
        worker_run: { id: made.workerRunId },
        agent: null,
        elements_count: 0,
      });
      const logs = await as('guest').get(`task/${id}/logs/`);
      expect(logs.statusCode).toBe(200);
      expect(logs.headers['content-type']).toMatch(/^text\/plain/);
      expect(logs.body).toBe('hello\n');
      for (const role of ['outsider', 'anonymous'] as const) {
        const response = await as(role).get(`task/${id}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
        expect((await as(role).get(`task/${id}/logs/`)).statusCode).toBe(404);
      }
      expect((await as('owner').get('task/not-a-uuid/')).statusCode).toBe(404);
    });
  });

  describe('stop', () => {
    it('turns a running task to stopping, and stops pending and unscheduled ones at once', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [
        { slug: 'run' },
        { slug: 'wait' },
        { slug: 'after', state: 'unscheduled', parents: ['wait'] },
        { slug: 'later', state: 'unscheduled', parents: ['run'] },
      ]);
      const agent = await registerAgent(app, made.farm, 'stopper', 1);
      await app.db
        .updateTable('tasks')
        .set({ state: 'unscheduled' })
        .where('id', '=', made.tasks.wait!)
        .execute();
      const claimed = await claim(app, agent, 1);
      expect(claimed.map((task) => task.id)).toEqual([made.tasks.run]);
      await app.db
        .updateTable('tasks')
        .set({ state: 'pending' })
        .where('id', '=', made.tasks.wait!)
        .execute();

      const owner = as('owner');
      const running = await owner.patch(`task/${made.tasks.run}/`, { state: 'stopping' });
      expect(running.statusCode).toBe(200);
      expect(running.json().state).toBe('stopping');
      const pending = await owner.patch(`task/${made.tasks.wait}/`, { state: 'stopping' });
      expect(pending.json().state).toBe('stopped');
      expect((await taskRow(app, made.tasks.wait!)).finished).not.toBeNull();
      // What waited for the stopped task can never run.
      expect((await taskRow(app, made.tasks.after!)).state).toBe('cancelled');
      const unscheduled = await owner.patch(`task/${made.tasks.later}/`, { state: 'stopping' });
      expect(unscheduled.json().state).toBe('stopped');
      expect(await processState(app, made.processId)).toBe('stopping');

      await finish(app, agent, made.tasks.run!, 'stopped');
      expect(await processState(app, made.processId)).toBe('stopped');
      const again = await owner.patch(`task/${made.tasks.run}/`, { state: 'stopping' });
      expect(again.statusCode).toBe(400);
      expect(again.json().errors[0].detail).toBe('This task is already finished.');
    });

    it('refuses a stop to non-admins and a body that is not a stop', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'guarded' }]);
      const id = made.tasks.guarded!;
      const contributor = await as('contributor').patch(`task/${id}/`, { state: 'stopping' });
      expect(contributor.statusCode).toBe(403);
      expect(contributor.json()).toEqual(NOT_ADMIN);
      expect((await as('outsider').patch(`task/${id}/`, { state: 'stopping' })).statusCode).toBe(
        404,
      );
      expect((await as('anonymous').patch(`task/${id}/`, { state: 'stopping' })).statusCode).toBe(
        401,
      );
      const wrong = await as('owner').patch(`task/${id}/`, { state: 'completed' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors[0].attr).toBe('state');
      expect((await taskRow(app, id)).state).toBe('pending');
    });
  });

  describe('restart', () => {
    it('replaces a failed task in the graph and brings back what it cancelled', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [
        { slug: 'first' },
        { slug: 'second', state: 'unscheduled', parents: ['first'] },
        { slug: 'third', state: 'unscheduled', parents: ['second'] },
      ]);
      const agent = await registerAgent(app, made.farm, 'restarter', 50);
      const claimed = await claim(app, agent, 50);
      expect(claimed.map((task) => task.id)).toContain(made.tasks.first);
      await finish(app, agent, made.tasks.first!, 'failed');
      expect((await taskRow(app, made.tasks.third!)).state).toBe('cancelled');

      const contributor = await as('contributor').post(`task/${made.tasks.first}/restart/`);
      expect(contributor.statusCode).toBe(403);
      const restarted = await as('owner').post(`task/${made.tasks.first}/restart/`);
      expect(restarted.statusCode).toBe(201);
      const task = restarted.json();
      expect(task).toMatchObject({
        process_id: made.processId,
        slug: 'first',
        run: 0,
        state: 'pending',
        original_task_id: made.tasks.first,
        worker_run: { id: made.workerRunId },
        attempts: 0,
      });
      expect(task.id).not.toBe(made.tasks.first);
      const second = await taskRow(app, made.tasks.second!);
      expect(second.state).toBe('unscheduled');
      expect(JSON.parse(second.parents)).toEqual([task.id]);
      expect((await taskRow(app, made.tasks.third!)).state).toBe('unscheduled');

      // The restarted task completing schedules the rest again.
      const next = await claim(app, agent, 50);
      expect(next.map((item) => item.id)).toContain(task.id);
      await finish(app, agent, task.id, 'completed');
      expect((await taskRow(app, made.tasks.second!)).state).toBe('pending');

      // Once the rest completes, the process has completed: the replaced task no longer counts.
      await claim(app, agent, 50);
      await finish(app, agent, made.tasks.second!, 'completed');
      await claim(app, agent, 50);
      await finish(app, agent, made.tasks.third!, 'completed');
      expect(await processState(app, made.processId)).toBe('completed');
    });

    it('refuses to restart a completed or unfinished task', async () => {
      const app = t().app;
      const made = await makeProcess(app, corpusId, actors.owner.id, [
        { slug: 'done', state: 'completed' },
        { slug: 'waiting' },
      ]);
      for (const id of [made.tasks.done, made.tasks.waiting]) {
        const response = await as('owner').post(`task/${id}/restart/`);
        expect(response.statusCode).toBe(400);
        expect(response.json().errors[0].detail).toBe(
          'Only a finished task that did not complete can be restarted.',
        );
      }
      const count = await app.db
        .selectFrom('tasks')
        .select('id')
        .where('process_id', '=', made.processId)
        .execute();
      expect(count).toHaveLength(2);
    });
  });
});
