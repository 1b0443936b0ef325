import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from '../harness';
import { makeActorsAndProjects, type Actors } from '../actors';
import { insertElements } from '../elementsFixtures';
import {
  claim,
  finish,
  makeProcess,
  processState,
  registerAgent,
  taskRow,
  type Agent,
} from '../tasks/fixtures';

const LOST_LINE = (hostname: string) =>
  `[agent ${hostname} stopped answering: the task goes back to the queue]\n`;

async function silence(app: FastifyInstance, agent: Agent) {
  await app.db
    .updateTable('agents')
    .set({ last_ping: new Date(Date.now() - 3600_000).toISOString() })
    .where('id', '=', agent.id)
    .execute();
}

async function heartbeat(app: FastifyInstance, agent: Agent, running: string[] = []) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/ponos/agent/heartbeat/',
    headers: agent.headers,
    payload: { running },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ stop: string[] }>().stop;
}

async function transcription(app: FastifyInstance, elementId: string, workerRunId: string) {
  const now = new Date().toISOString();
  const id = randomUUID();
  await app.db
    .insertInto('transcriptions')
    .values({
      id,
      element_id: elementId,
      text: 'read by the worker',
      orientation: 'horizontal-lr',
      confidence: 0.9,
      worker_run_id: workerRunId,
      creator_id: null,
      created: now,
      updated: now,
    })
    .execute();
  return id;
}

async function activity(
  app: FastifyInstance,
  workerRunId: string,
  elementId: string,
  state: 'queued' | 'started' | 'processed',
) {
  const now = new Date().toISOString();
  await app.db
    .insertInto('worker_activities')
    .values({
      id: randomUUID(),
      worker_run_id: workerRunId,
      element_id: elementId,
      state,
      created: now,
      updated: now,
    })
    .execute();
}

const exists = async (app: FastifyInstance, table: 'transcriptions' | 'elements', id: string) =>
  !!(await app.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());

const activityState = async (app: FastifyInstance, workerRunId: string, elementId: string) =>
  (
    await app.db
      .selectFrom('worker_activities')
      .select('state')
      .where('worker_run_id', '=', workerRunId)
      .where('element_id', '=', elementId)
      .executeTakeFirstOrThrow()
  ).state;

describeEachDialect('Lost agents', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  beforeAll(async () => {
    const made = await makeActorsAndProjects(t().app);
    actors = made.actors;
    corpusId = made.privateId;
  });

  it('requeue undoes the started elements and keeps the processed ones', async () => {
    const app = t().app;
    const ids = await insertElements(app, corpusId, [
      { name: 'Done page', type: 'page' },
      { name: 'Half page', type: 'page' },
      { name: 'Untouched page', type: 'page' },
    ]);
    const made = await makeProcess(app, corpusId, actors.owner.id, [
      { slug: 'ocr', elements: [ids['Done page']!, ids['Half page']!, ids['Untouched page']!] },
    ]);
    const run = made.workerRunId;
    const lost = await registerAgent(app, made.farm, 'vanishing', 1);
    const witness = await registerAgent(app, made.farm, 'witness', 1);
    await claim(app, lost, 1);
    await activity(app, run, ids['Done page']!, 'processed');
    await activity(app, run, ids['Half page']!, 'started');
    await activity(app, run, ids['Untouched page']!, 'queued');
    const kept = await transcription(app, ids['Done page']!, run);
    const partial = await transcription(app, ids['Half page']!, run);
    const made2 = await insertElements(app, corpusId, [
      {
        name: 'Line made by the worker',
        type: 'text_line',
        parent: ids['Half page']!,
        workerRunId: run,
      },
    ]);
    const line = made2['Line made by the worker']!;
    const lineText = await transcription(app, line, run);
    // A result of someone else on the half-done page stays.
    const manual = randomUUID();
    const now = new Date().toISOString();
    await app.db
      .insertInto('transcriptions')
      .values({
        id: manual,
        element_id: ids['Half page']!,
        text: 'typed by a person',
        orientation: 'horizontal-lr',
        confidence: null,
        worker_run_id: null,
        creator_id: actors.owner.id,
        created: now,
        updated: now,
      })
      .execute();

    await silence(app, lost);
    await heartbeat(app, witness);

    const task = await taskRow(app, made.tasks.ocr!);
    expect(task).toMatchObject({ state: 'pending', agent_id: null, token_hash: null, attempts: 1 });
    expect(task.logs).toBe(LOST_LINE('vanishing'));
    expect(await processState(app, made.processId)).toBe('pending');
    expect(await activityState(app, run, ids['Half page']!)).toBe('queued');
    expect(await activityState(app, run, ids['Done page']!)).toBe('processed');
    expect(await activityState(app, run, ids['Untouched page']!)).toBe('queued');
    expect(await exists(app, 'transcriptions', partial)).toBe(false);
    expect(await exists(app, 'elements', line)).toBe(false);
    expect(await exists(app, 'transcriptions', lineText)).toBe(false);
    expect(await exists(app, 'transcriptions', kept)).toBe(true);
    expect(await exists(app, 'transcriptions', manual)).toBe(true);

    // The lost agent, back, is told to kill what is no longer its own, and cannot end it.
    expect(await heartbeat(app, lost, [made.tasks.ocr!])).toEqual([made.tasks.ocr]);
    const late = await finish(app, lost, made.tasks.ocr!, 'completed');
    expect(late.statusCode).toBe(403);
    expect((await taskRow(app, made.tasks.ocr!)).state).toBe('pending');
  });

  it('a task its agent ends stopped or failed leaves no element half done', async () => {
    const app = t().app;
    for (const end of ['stopped', 'failed'] as const) {
      const ids = await insertElements(app, corpusId, [
        { name: `Read before the ${end} end`, type: 'page' },
        { name: `Half read at the ${end} end`, type: 'page' },
      ]);
      const done = ids[`Read before the ${end} end`]!;
      const half = ids[`Half read at the ${end} end`]!;
      const made = await makeProcess(app, corpusId, actors.owner.id, [
        { slug: 'ocr', elements: [done, half] },
      ]);
      const run = made.workerRunId;
      const agent = await registerAgent(app, made.farm, `ending-${end}`, 1);
      await claim(app, agent, 1);
      await activity(app, run, done, 'processed');
      await activity(app, run, half, 'started');
      const kept = await transcription(app, done, run);
      const partial = await transcription(app, half, run);

      const response = await finish(app, agent, made.tasks.ocr!, end);
      expect(response.statusCode).toBe(200);
      expect((await taskRow(app, made.tasks.ocr!)).state).toBe(end);
      // The retry redoes the half-read page from scratch and skips the one read.
      expect(await activityState(app, run, half)).toBe('queued');
      expect(await exists(app, 'transcriptions', partial)).toBe(false);
      expect(await activityState(app, run, done)).toBe('processed');
      expect(await exists(app, 'transcriptions', kept)).toBe(true);
    }
  });

  it('ends a task in error once it was lost three times', async () => {
    const app = t().app;
    const made = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'unlucky' }]);
    const id = made.tasks.unlucky!;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const agent = await registerAgent(app, made.farm, `host-${attempt}`, 1);
      const claimed = await claim(app, agent, 1);
      expect(claimed.map((task) => task.id)).toEqual([id]);
      expect((await taskRow(app, id)).attempts).toBe(attempt);
      await silence(app, agent);
      const witness = await registerAgent(app, made.farm, 'witness', 1);
      await heartbeat(app, witness);
      expect((await taskRow(app, id)).state).toBe(attempt < 3 ? 'pending' : 'error');
    }
    const task = await taskRow(app, id);
    expect(task.finished).not.toBeNull();
    expect(task.logs.split('\n').filter(Boolean)).toEqual([
      LOST_LINE('host-1').trim(),
      LOST_LINE('host-2').trim(),
      '[agent host-3 stopped answering: the task was tried 3 times and ends in error]',
    ]);
    expect(await processState(app, made.processId)).toBe('error');
  });

  it('stops a stopping task whose agent is lost', async () => {
    const app = t().app;
    const made = await makeProcess(app, corpusId, actors.owner.id, [{ slug: 'halting' }]);
    const agent = await registerAgent(app, made.farm, 'halting-host', 1);
    await claim(app, agent, 1);
    await app.db
      .updateTable('tasks')
      .set({ state: 'stopping' })
      .where('id', '=', made.tasks.halting!)
      .execute();
    await silence(app, agent);
    const witness = await registerAgent(app, made.farm, 'witness', 1);
    // A claim checks for lost agents too.
    expect(await claim(app, witness, 1)).toEqual([]);
    expect((await taskRow(app, made.tasks.halting!)).state).toBe('stopped');
    expect(await processState(app, made.processId)).toBe('stopped');
  });
});

describeEachDialect(
  'Lost agents found by the server on its own',
  ({ t }) => {
    describe('with a one second timeout', () => {
      it('requeues the tasks of an agent that went silent without anyone calling', async () => {
        const app = t().app;
        const { actors, privateId } = await makeActorsAndProjects(app);
        const made = await makeProcess(app, privateId, actors.owner.id, [{ slug: 'alone' }]);
        const agent = await registerAgent(app, made.farm, 'alone-host', 1);
        await claim(app, agent, 1);
        const deadline = Date.now() + 8000;
        let state = (await taskRow(app, made.tasks.alone!)).state;
        while (state === 'running' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          state = (await taskRow(app, made.tasks.alone!)).state;
        }
        expect(state).toBe('pending');
      }, 15_000);
    });
  },
  { FOLIA_AGENT_TIMEOUT_S: '1' },
);
