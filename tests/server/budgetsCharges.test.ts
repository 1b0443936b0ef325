import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActorsAndProjects, type Actors } from './actors';
import { NOT_ADMIN, UNKNOWN_ID, invalidPk, validation } from './expectedErrors';
import { claim, defaultFarm, finish, makeProcess, registerAgent } from './tasks/fixtures';
import { addRun, createProcess, makeTree, makeVersion } from './processes/fixtures';
import { finishTask } from '../../server/services/tasks/transitions';
import { spentMessage } from '../../server/services/budgets/charges';

const ENTERPRISE = { FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: 'c5'.repeat(32) };
const HOUR = 3_600_000;

describeEachDialect(
  'Budgets charged by finished tasks',
  ({ t }) => {
    let actors: Actors;
    let privateId: string;
    const as = (role: keyof Actors | 'anonymous') => clientFor(t().app, actors, role);
    const db = () => t().app.db;

    beforeAll(async () => {
      ({ actors, privateId } = await makeActorsAndProjects(t().app));
      await makeTree(t().app, privateId);
    });

    const makeBudget = async (name: string, amount: string) => {
      const response = await as('siteAdmin').post('budgets/', { name, amount, currency: 'EUR' });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: string };
    };
    const attach = (processId: string, budgetId: string | null) =>
      as('owner').put(`process/${processId}/budget/`, { budget_id: budgetId });
    const startedAgo = (taskId: string, ms: number) =>
      db()
        .updateTable('tasks')
        .set({ started: new Date(Date.now() - ms).toISOString() })
        .where('id', '=', taskId)
        .execute();
    const entries = (budgetId: string) =>
      db()
        .selectFrom('budget_entries')
        .selectAll()
        .where('budget_id', '=', budgetId)
        .orderBy('created')
        .execute();
    const taskCount = async (processId: string) =>
      (await db().selectFrom('tasks').select('id').where('process_id', '=', processId).execute())
        .length;

    it('adds one entry per finished task: its hours × its agent farm’s rate', async () => {
      const budget = await makeBudget('Recognition', '100');
      const made = await makeProcess(t().app, privateId, actors.owner.id, [
        { slug: 'ocr' },
        { slug: 'never', state: 'unscheduled', parents: ['ocr'] },
      ]);
      const attached = await attach(made.processId, budget.id);
      expect(attached.statusCode, attached.body).toBe(200);
      expect(attached.json().budget_id).toBe(budget.id);
      const rate = await as('siteAdmin').patch(`farm/${made.farm.id}/`, { rate: '12.50' });
      expect(rate.statusCode).toBe(200);

      const agent = await registerAgent(t().app, made.farm, 'charged', 1);
      const [task] = await claim(t().app, agent);
      expect(task?.id).toBe(made.tasks.ocr);
      await startedAgo(made.tasks.ocr!, 2 * HOUR);
      expect((await finish(t().app, agent, made.tasks.ocr!, 'failed')).statusCode).toBe(200);

      // The child never started (cancelled by the failure): it costs nothing.
      const [entry, ...others] = await entries(budget.id);
      expect(others).toEqual([]);
      expect(entry).toMatchObject({
        process_id: made.processId,
        task_id: made.tasks.ocr,
        description: expect.stringMatching(/^Task ocr: 120 min \d+ s at 12\.50 an hour on Farm /),
      });
      expect(Number(entry!.value)).toBe(2500);

      // Recorded again (as a requeue does), the end charges nothing more.
      await finishTask(db(), { id: made.tasks.ocr!, process_id: made.processId }, 'error');
      expect((await entries(budget.id)).length).toBe(1);

      const budgetJson = (await as('guest').get(`budget/${budget.id}/`)).json();
      expect(budgetJson).toMatchObject({ amount: '100.00', spent: '25.00', remaining: '75.00' });
      const listed = await as('guest').get(`budget/${budget.id}/entries/`);
      expect(listed.json()).toMatchObject({
        count: 1,
        results: [
          {
            id: entry!.id,
            budget_id: budget.id,
            process: { id: made.processId, name: 'Recognition' },
            task_id: made.tasks.ocr,
            value: '25.00',
          },
        ],
      });
      const filtered = await as('guest').get(
        `budget/${budget.id}/entries/?process_id=${UNKNOWN_ID}`,
      );
      expect(filtered.json()).toMatchObject({ count: 0, results: [] });
      expect((await as('guest').get(`budget/${budget.id}/entries/?process_id=x`)).statusCode).toBe(
        400,
      );
      const summary = (await as('guest').get(`budget/${budget.id}/summary/`)).json();
      expect(summary).toEqual({
        processes: [
          { process: { id: made.processId, name: 'Recognition' }, tasks: 1, total: '25.00' },
        ],
        days: [{ day: entry!.created.slice(0, 10), tasks: 1, total: '25.00' }],
      });

      // The entry outlives its process.
      await db().deleteFrom('processes').where('id', '=', made.processId).execute();
      const kept = await entries(budget.id);
      expect(kept).toMatchObject([{ id: entry!.id, process_id: null }]);
      expect((await as('guest').get(`budget/${budget.id}/`)).json().spent).toBe('25.00');
    });

    it('refuses to start or retry a process once its budget is spent', async () => {
      const budget = await makeBudget('Small', '1.00');
      const version = await makeVersion(t().app);
      const first = await createProcess(as('owner'), privateId, { element_type: 'page' });
      await addRun(as('owner'), first.id, version.versionId);
      expect((await attach(first.id, budget.id)).statusCode).toBe(200);
      const farm = await defaultFarm(t().app);
      await as('siteAdmin').patch(`farm/${farm.id}/`, { rate: '1' });

      expect((await as('owner').post(`process/${first.id}/start/`, {})).statusCode).toBe(201);
      const [task] = await db()
        .selectFrom('tasks')
        .select(['id', 'process_id'])
        .where('process_id', '=', first.id)
        .execute();
      // No agent ran it (a stale claim swept): the process' farm gives the rate.
      await startedAgo(task!.id, 3 * HOUR);
      await finishTask(db(), task!, 'failed');
      expect(Number((await entries(budget.id))[0]!.value)).toBe(300);

      const refusal = validation(null, spentMessage('Small', '3.00', '1.00', 'EUR'));
      expect(refusal.errors[0]!.detail).toBe('The budget “Small” is spent: 3.00 EUR of 1.00 EUR.');
      const retried = await as('owner').post(`process/${first.id}/retry/`, {});
      expect(retried.statusCode).toBe(400);
      expect(retried.json()).toEqual({
        ...refusal,
        errors: [{ ...refusal.errors[0], code: 'budget_spent' }],
      });
      expect(await taskCount(first.id)).toBe(1);

      const second = await createProcess(as('owner'), privateId, { element_type: 'page' });
      await addRun(as('owner'), second.id, version.versionId);
      expect((await attach(second.id, budget.id)).statusCode).toBe(200);
      const started = await as('owner').post(`process/${second.id}/start/`, {});
      expect(started.statusCode).toBe(400);
      expect(started.json().errors[0].detail).toBe(refusal.errors[0]!.detail);
      expect(await taskCount(second.id)).toBe(0);
      const row = await db()
        .selectFrom('processes')
        .select(['started', 'state'])
        .where('id', '=', second.id)
        .executeTakeFirstOrThrow();
      expect(row.started).toBeNull();

      // Detached, it starts; a process without a budget is not affected.
      expect((await attach(second.id, null)).json().budget_id).toBeNull();
      expect((await as('owner').post(`process/${second.id}/start/`, {})).statusCode).toBe(201);

      // A larger amount lets the first one run again.
      await as('siteAdmin').patch(`budget/${budget.id}/`, { amount: '10' });
      expect((await as('owner').post(`process/${first.id}/retry/`, {})).statusCode).toBe(201);
      expect(await taskCount(first.id)).toBe(2);
    });

    it('is attached by the process’ admins only, to a budget that exists', async () => {
      const budget = await makeBudget('Attach', '5');
      const made = await createProcess(as('owner'), privateId);
      const put = (role: keyof Actors, body: unknown) =>
        as(role).put(`process/${made.id}/budget/`, body);
      expect((await put('contributor', { budget_id: budget.id })).json()).toEqual(NOT_ADMIN);
      expect((await put('outsider', { budget_id: budget.id })).statusCode).toBe(404);
      expect((await put('owner', { budget_id: UNKNOWN_ID })).json()).toEqual(
        invalidPk('budget_id', UNKNOWN_ID),
      );
      expect((await put('owner', { budget_id: 'nope' })).statusCode).toBe(400);
      expect((await put('owner', {})).statusCode).toBe(400);
      expect((await as('owner').put(`process/nope/budget/`, { budget_id: null })).statusCode).toBe(
        404,
      );
      expect((await as('owner').get(`process/${made.id}/`)).json().budget_id).toBeNull();
      const done = await put('owner', { budget_id: budget.id.toUpperCase() });
      expect(done.json().budget_id).toBe(budget.id);
      // Deleting the budget leaves the process without one.
      await as('siteAdmin').delete(`budget/${budget.id}/`);
      expect((await as('owner').get(`process/${made.id}/`)).json().budget_id).toBeNull();
    });
  },
  ENTERPRISE,
);
