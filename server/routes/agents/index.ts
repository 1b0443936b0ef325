/**
 * Farms and agents: what users list, and the calls an agent makes (register, heartbeat, claim, logs, artifacts, final state).
 * Rights come from permissions.ts before any body is read; rules live in services/agents/.
 * Agent calls carry `Authorization: Farm …` (register) or `Authorization: Agent …` (the rest):
 * no session, so no CSRF.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { notFound, permissionDenied } from '../../errors';
import { paginate } from '../../pagination';
import { requireSiteAdmin, requireUuid } from '../../permissions';
import { parse, text, uuidSchema } from '../../validation';
import {
  agentSource,
  agentsJson,
  farmSource,
  registerAgent,
  requireAgent,
  requireFarm,
  tasksToStop,
  touchAgent,
  type AgentRow,
} from '../../services/agents/agents';
import { claimTasks } from '../../services/agents/claim';
import { startLostAgentSweep } from '../../services/agents/sweep';
import { tasksJson, type TaskRow } from '../../services/tasks/json';
import { appendTaskLog } from '../../services/tasks/logs';
import { requeueLostTasks, undoUnfinishedElements } from '../../services/tasks/requeue';
import { FINAL_STATES, finishTask } from '../../services/tasks/transitions';
import { storeArtifact } from '../../services/tasks/artifacts';
import type { Db } from '../../db';
import type { ClaimAnswer, HeartbeatAnswer } from '../../../agent/protocol';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';
import { artifact, task as taskObject } from '../../openapi/process';
import {
  agentObject,
  agentWithTasks,
  claimAnswer,
  farmObject,
  heartbeatAnswer,
  ponosSchema,
  registration,
} from './schemas';
import { noteAgentReport } from '../../services/agents/reports';

const count = (max: number) => z.number().int().min(0).max(max);

const registerBody = z.object({
  hostname: text(100),
  slots: z.number().int().min(1).max(256),
  cpu_cores: count(4096).optional(),
  ram_total: count(Number.MAX_SAFE_INTEGER).optional(),
  gpus: count(256).optional(),
});

const heartbeatBody = z.object({
  running: z.array(uuidSchema).max(1000).default([]),
  // Load per core: above 1 when the run queue is longer than the cores, never in the thousands.
  cpu_load: z.number().min(0).max(1000).optional(),
  ram_used: count(Number.MAX_SAFE_INTEGER).optional(),
});
const claimBody = z.object({ slots: z.number().int().min(1).max(256) });
const finishBody = z.object({ state: z.enum(FINAL_STATES) });

/** The largest log piece one call may append: the stored log keeps 1 MiB anyway. */
const MAX_LOG_BODY = 4 * 1024 * 1024;

type IdParams = { Params: { id: string } };
type ArtifactParams = { Params: { id: string; '*': string } };

const notHeld = () => permissionDenied('This task is not running on this agent.');

/** The task the agent holds (claimed and not finished); 403 for a task it does not hold. */
async function requireHeldTask(db: Db, agent: AgentRow, id: string): Promise<TaskRow> {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!task) throw notFound();
  if (task.agent_id !== agent.id || !['running', 'stopping'].includes(task.state)) throw notHeld();
  return task;
}

export async function agentRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const timeoutS = () => app.config.agentTimeoutS;

  let stopSweep: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stopSweep = startLostAgentSweep(app);
  });
  app.addHook('preClose', async () => {
    await stopSweep?.();
  });

  app.get(
    '/farms/',
    ponosSchema('ListFarms', {
      'x-paginated': true,
      querystring: pageQuery,
      response: { 200: paginated(farmObject), ...errors(401) },
    }),
    async (request) => {
      requireUser(request);
      return paginate(request, farmSource(db));
    },
  );

  app.get(
    '/agents/',
    ponosSchema('ListAgents', {
      'x-paginated': true,
      querystring: pageQuery,
      response: { 200: paginated(agentObject), ...errors(401, 403) },
    }),
    async (request) => {
      requireSiteAdmin(request.user);
      const page = await paginate(request, agentSource(db));
      return { ...page, results: await agentsJson(db, page.results, timeoutS()) };
    },
  );

  app.get<IdParams>(
    '/agent/:id/',
    ponosSchema('RetrieveAgent', {
      params: idParams,
      response: { 200: agentWithTasks, ...errors(401, 403, 404) },
    }),
    async (request) => {
      requireSiteAdmin(request.user);
      const agent = await db
        .selectFrom('agents')
        .selectAll()
        .where('id', '=', requireUuid(request.params.id))
        .executeTakeFirst();
      if (!agent) throw notFound();
      const running = await db
        .selectFrom('tasks')
        .selectAll()
        .where('agent_id', '=', agent.id)
        .where('state', 'in', ['running', 'stopping'])
        .orderBy('started')
        .execute();
      const [json] = await agentsJson(db, [agent], timeoutS());
      return { ...json, running: await tasksJson(db, running) };
    },
  );

  app.post(
    '/ponos/agent/register/',
    ponosSchema('RegisterAgent', {
      description: 'Authenticated with a farm token.',
      body: registerBody,
      response: { 201: registration, ...errors(400, 401, 403) },
    }),
    async (request, reply) => {
      const farm = await requireFarm(db, request);
      const input = parse(registerBody, request.body);
      return reply.code(201).send(await registerAgent(db, farm, input));
    },
  );

  // Agents call these every second or so: a request log line each would bury everything else.
  app.post(
    '/ponos/agent/heartbeat/',
    {
      ...ponosSchema('UpdateAgentHeartbeat', {
        body: heartbeatBody,
        response: { 200: heartbeatAnswer, ...errors(400, 401, 403) },
      }),
      logLevel: 'warn' as const,
    },
    async (request) => {
      const agent = await requireAgent(db, request);
      const input = parse(heartbeatBody, request.body ?? {});
      await touchAgent(db, agent.id);
      noteAgentReport(agent.id, input);
      await requeueLostTasks(db, app.dialect, timeoutS());
      return { stop: await tasksToStop(db, agent.id, input.running) } satisfies HeartbeatAnswer;
    },
  );

  app.post(
    '/ponos/agent/claim/',
    {
      ...ponosSchema('ClaimAgentTask', {
        body: claimBody,
        response: { 200: claimAnswer, ...errors(400, 401, 403) },
      }),
      logLevel: 'warn' as const,
    },
    async (request) => {
      const agent = await requireAgent(db, request);
      const input = parse(claimBody, request.body);
      await touchAgent(db, agent.id);
      await requeueLostTasks(db, app.dialect, timeoutS());
      return { tasks: await claimTasks(db, app.dialect, agent, input.slots) } satisfies ClaimAnswer;
    },
  );

  app.patch<IdParams>(
    '/ponos/task/:id/',
    ponosSchema('PartialUpdateTaskFromAgent', {
      params: idParams,
      body: finishBody,
      response: { 200: taskObject, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const agent = await requireAgent(db, request);
      const task = await requireHeldTask(db, agent, request.params.id);
      const input = parse(finishBody, request.body);
      if (!(await finishTask(db, task, input.state, agent.id))) throw notHeld();
      if (input.state !== 'completed') await undoUnfinishedElements(db, task);
      const updated = await db
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', task.id)
        .executeTakeFirstOrThrow();
      return (await tasksJson(db, [updated]))[0];
    },
  );

  await app.register(async (raw) => {
    // Logs and artifacts arrive as they are: the body reaches the handler as a stream.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.addHook('onSend', async (request, reply) => {
      if (reply.statusCode >= 400 && !request.raw.readableEnded) {
        reply.header('connection', 'close');
      }
    });

    raw.post<IdParams>(
      '/ponos/task/:id/logs/',
      ponosSchema('AppendTaskLog', {
        description: 'The body is text to append to the log, of any content type.',
        params: idParams,
        response: { 204: noContent, ...errors(401, 403, 404) },
      }),
      async (request, reply) => {
        const agent = await requireAgent(db, request);
        const task = await requireHeldTask(db, agent, request.params.id);
        const body = await readText(request.body as Readable | undefined, MAX_LOG_BODY);
        await appendTaskLog(db, app.dialect, task.id, body);
        return reply.code(204).send();
      },
    );

    raw.put<ArtifactParams>(
      '/ponos/task/:id/artifacts/*',
      ponosSchema('UploadTaskArtifact', {
        description: 'The body is the file itself; its content type is kept.',
        params: z.object({ id: z.uuid(), '*': z.string().describe("The artifact's path") }),
        response: { 201: artifact, ...errors(400, 401, 403, 404) },
      }),
      async (request, reply) => {
        const agent = await requireAgent(db, request);
        const task = await requireHeldTask(db, agent, request.params.id);
        const artifact = await storeArtifact(
          db,
          app.config.dataDir,
          task.id,
          request.params['*'],
          request.headers['content-type'],
          request.body as Readable | undefined,
          request.headers['content-length'],
        );
        return reply.code(201).send(artifact);
      },
    );
  });
}

/** The body as text, at most `max` bytes of it (the rest is read and dropped). */
async function readText(body: Readable | undefined, max: number): Promise<string> {
  if (!body) return '';
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size >= max) continue;
    const piece = chunk.subarray(0, max - size);
    parts.push(piece);
    size += piece.length;
  }
  return Buffer.concat(parts).toString('utf8');
}
