/**
 * Tasks and agents, with the server as a process of its own answering over HTTP (as agents see
 * it), on SQLite and PostgreSQL:
 * (1) tasks claimed per second from a queue of pending tasks by one agent's claim calls and by
 *     two agents claiming at once, against the bare `update … where state = 'pending'` claim
 *     sent through the database driver;
 * (2) what running the no-op worker as a task of a real agent costs per element, against
 *     spawning the same program directly with the same environment.
 * Sides alternate from one round to the next; ratios are medians of the rounds' pairs.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createElements } from '../server/services/elements/create';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { makeFarm, makeProcess, type Farm } from '../tests/server/tasks/fixtures';
import { startAgent } from '../tests/agent/agentProcess';
import { seedProject, seedUser, type DialectName } from './seed';
import { median, onEachDialect, sleep, stopBench } from './serverProcess';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUEUE = Number(process.env.FOLIA_BENCH_TASKS ?? 400);
const ROUNDS = Number(process.env.FOLIA_BENCH_ROUNDS ?? 5);
const ELEMENTS = Number(process.env.FOLIA_BENCH_TASK_ELEMENTS ?? 50);
const NOOP = ['tsx', '{folia}/workers/noop/main.ts'];

interface Bench {
  app: FastifyInstance;
  server: ChildServer;
  userId: string;
  corpusId: string;
}

async function post<T>(server: ChildServer, url: string, authorization: string, body: unknown) {
  const response = await fetch(`${server.url}/api/v1/${url}`, {
    method: url.startsWith('ponos/task/') ? 'PATCH' : 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function registerAgent(server: ChildServer, farm: Farm, hostname: string) {
  const agent = await post<{ token: string }>(
    server,
    'ponos/agent/register/',
    `Farm ${farm.token}`,
    { hostname, slots: 1 },
  );
  return `Agent ${agent.token}`;
}

/** `count` pending worker tasks of one process of the farm, oldest first. */
async function fillQueue(bench: Bench, farm: Farm, count: number): Promise<string> {
  const made = await makeProcess(bench.app, bench.corpusId, bench.userId, [], {
    command: NOOP,
    farm,
  });
  const start = Date.now();
  const rows = Array.from({ length: count }, (_, i) => {
    const created = new Date(start + i).toISOString();
    return {
      id: randomUUID(),
      process_id: made.processId,
      slug: `task_${i}`,
      kind: 'worker' as const,
      state: 'pending' as const,
      worker_run_id: made.workerRunId,
      created,
      updated: created,
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    await bench.app.db
      .insertInto('tasks')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  return made.processId;
}

async function emptyQueue(bench: Bench, processId: string): Promise<void> {
  await bench.app.db.deleteFrom('tasks').where('process_id', '=', processId).execute();
}

/** Claims one task at a time through the API until the queue is empty; the ids claimed. */
async function claimAll(bench: Bench, authorization: string): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const { tasks } = await post<{ tasks: { id: string }[] }>(
      bench.server,
      'ponos/agent/claim/',
      authorization,
      { slots: 1 },
    );
    if (tasks.length === 0) return ids;
    ids.push(...tasks.map((task) => task.id));
  }
}

/** The same claim, bare: one statement through the driver, no API around it. */
async function claimAllRaw(bench: Bench, agentId: string): Promise<number> {
  let claimed = 0;
  for (;;) {
    const now = new Date().toISOString();
    const { rows } = await sql<{ id: string }>`
      update tasks set state = 'running', agent_id = ${agentId}, started = ${now},
        updated = ${now}, attempts = attempts + 1
      where id = (select id from tasks where state = 'pending' and kind = 'worker'
                  order by created, id limit 1)
        and state = 'pending'
      returning id`.execute(bench.app.db);
    if (rows.length === 0) return claimed;
    claimed += rows.length;
  }
}

async function benchClaims(bench: Bench, dialect: DialectName): Promise<void> {
  const farm = await makeFarm(bench.app);
  const first = await registerAgent(bench.server, farm, 'claimer-1');
  const second = await registerAgent(bench.server, farm, 'claimer-2');
  const agentRow = await bench.app.db
    .selectFrom('agents')
    .select('id')
    .where('hostname', '=', 'claimer-1')
    .executeTakeFirstOrThrow();

  type Side = 'one agent' | 'two agents' | 'raw SQL';
  const perSecond: Record<Side, number[]> = { 'one agent': [], 'two agents': [], 'raw SQL': [] };
  const sides: Record<Side, () => Promise<number>> = {
    'one agent': async () => (await claimAll(bench, first)).length,
    'two agents': async () => {
      const [a, b] = await Promise.all([claimAll(bench, first), claimAll(bench, second)]);
      const all = new Set([...a, ...b]);
      if (all.size !== a.length + b.length) throw new Error('a task was claimed twice');
      return all.size;
    },
    'raw SQL': () => claimAllRaw(bench, agentRow.id),
  };
  const order = Object.keys(sides) as Side[];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const side of round % 2 ? [...order].reverse() : order) {
      const processId = await fillQueue(bench, farm, QUEUE);
      const t0 = performance.now();
      const claimed = await sides[side]();
      const seconds = (performance.now() - t0) / 1000;
      if (claimed !== QUEUE) throw new Error(`${side}: claimed ${claimed} of ${QUEUE}`);
      perSecond[side].push(claimed / seconds);
      await emptyQueue(bench, processId);
    }
  }
  console.log(`\n${dialect}: tasks claimed per second, queue of ${QUEUE}, ${ROUNDS} rounds`);
  for (const side of order) {
    console.log(`  ${side.padEnd(10)} ${median(perSecond[side]).toFixed(0).padStart(7)} tasks/s`);
  }
  const ratio = (a: Side, b: Side) =>
    median(perSecond[a].map((value, i) => value / perSecond[b][i]!)).toFixed(2);
  console.log(`  raw SQL / one agent (median of pairs): ${ratio('raw SQL', 'one agent')}×`);
  console.log(`  raw SQL / two agents (median of pairs): ${ratio('raw SQL', 'two agents')}×`);
  console.log(`  two agents / one agent (median of pairs): ${ratio('two agents', 'one agent')}×`);
}

/** Runs the no-op program as a task would, without an agent; milliseconds to its exit. */
async function runDirect(bench: Bench, farm: Farm, authorization: string): Promise<number> {
  const elements = await benchElements(bench);
  await makeProcess(bench.app, bench.corpusId, bench.userId, [{ slug: 'direct', elements }], {
    command: NOOP,
    farm,
  });
  const { tasks } = await post<{
    tasks: {
      id: string;
      token: string;
      env: Record<string, string>;
      elements: unknown[];
    }[];
  }>(bench.server, 'ponos/agent/claim/', authorization, { slots: 1 });
  const task = tasks[0]!;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-bench-direct-'));
  fs.writeFileSync(path.join(scratch, 'elements.json'), JSON.stringify(task.elements));
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      NOOP[0]!,
      NOOP.slice(1).map((part) => part.replace('{folia}', root)),
      {
        cwd: scratch,
        env: {
          ...process.env,
          ...task.env,
          ARKINDEX_API_URL: `${bench.server.url}/api/v1/`,
          TASK_ELEMENTS: path.join(scratch, 'elements.json'),
          PONOS_DATA: scratch,
          PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
        },
        stdio: 'ignore',
      },
    );
    child.once('exit', resolve);
  });
  const ms = performance.now() - t0;
  fs.rmSync(scratch, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the no-op worker exited ${code}`);
  await post(bench.server, `ponos/task/${task.id}/`, authorization, { state: 'completed' });
  return ms;
}

/** Runs the no-op worker as a task of the real agent; milliseconds from claim to final state. */
async function runThroughAgent(bench: Bench, farm: Farm): Promise<number> {
  const elements = await benchElements(bench);
  const made = await makeProcess(
    bench.app,
    bench.corpusId,
    bench.userId,
    [{ slug: 'agent', elements }],
    { command: NOOP, farm },
  );
  for (;;) {
    const task = await bench.app.db
      .selectFrom('tasks')
      .select(['state', 'started', 'finished', 'logs'])
      .where('id', '=', made.tasks.agent!)
      .executeTakeFirstOrThrow();
    if (task.state === 'completed') return Date.parse(task.finished!) - Date.parse(task.started!);
    if (['failed', 'error'].includes(task.state))
      throw new Error(`agent task ${task.state}: ${task.logs}`);
    await sleep(20);
  }
}

let elementIds: string[] | null = null;
async function benchElements(bench: Bench): Promise<string[]> {
  if (elementIds) return elementIds;
  const type = await bench.app.db
    .selectFrom('element_types')
    .select('id')
    .where('corpus_id', '=', bench.corpusId)
    .where('slug', '=', 'page')
    .executeTakeFirstOrThrow();
  elementIds = await bench.app.db.transaction().execute((trx) =>
    createElements(
      trx,
      Array.from({ length: ELEMENTS }, (_, i) => ({
        corpusId: bench.corpusId,
        typeId: type.id,
        name: `Page ${i + 1}`,
        parentId: null,
        imageId: null,
        polygon: null,
        confidence: null,
        creatorId: null,
        workerRunId: null,
      })),
    ),
  );
  return elementIds;
}

async function benchWorker(bench: Bench, dialect: DialectName): Promise<void> {
  const agentFarm = await makeFarm(bench.app);
  const directFarm = await makeFarm(bench.app);
  const direct = await registerAgent(bench.server, directFarm, 'direct');
  const agent = startAgent({ url: bench.server.url, farmToken: agentFarm.token, slots: 1 });
  try {
    await agent.registered;
    const times = { agent: [] as number[], direct: [] as number[] };
    // One unmeasured run each: tsx's cache and the server's first queries warm up.
    await runThroughAgent(bench, agentFarm);
    await runDirect(bench, directFarm, direct);
    for (let round = 0; round < ROUNDS; round += 1) {
      const pair = [
        async () => times.agent.push(await runThroughAgent(bench, agentFarm)),
        async () => times.direct.push(await runDirect(bench, directFarm, direct)),
      ];
      for (const side of round % 2 ? pair.reverse() : pair) await side();
    }
    const overheadMs = times.agent.map((value, i) => value - times.direct[i]!);
    console.log(`\n${dialect}: no-op worker on ${ELEMENTS} elements, ${ROUNDS} rounds (median)`);
    console.log(
      `  through the agent (claim → final state; the idle poll wait not counted): ${median(times.agent).toFixed(0)} ms`,
    );
    console.log(`  spawned directly (spawn → exit): ${median(times.direct).toFixed(0)} ms`);
    console.log(
      `  agent overhead: ${median(overheadMs).toFixed(0)} ms per task, ` +
        `${(median(overheadMs) / ELEMENTS).toFixed(2)} ms per element; ` +
        `agent / direct ${median(times.agent.map((value, i) => value / times.direct[i]!)).toFixed(2)}×`,
    );
  } finally {
    await agent.kill('SIGTERM');
  }
}

async function benchDialect(dialect: DialectName): Promise<void> {
  const throwaway = await makeThrowawayApp(dialect, { label: 'bench' });
  let server: ChildServer | null = null;
  try {
    const user = await seedUser(throwaway.app);
    const corpusId = await seedProject(throwaway.app, { ...user }, 'Tasks');
    server = await startChildServer(throwaway.config);
    const bench: Bench = { app: throwaway.app, server, userId: user.id, corpusId };
    elementIds = null;
    await benchClaims(bench, dialect);
    await benchWorker(bench, dialect);
  } finally {
    await stopBench(server, throwaway);
  }
}

export async function run(): Promise<void> {
  await onEachDialect(benchDialect);
}
