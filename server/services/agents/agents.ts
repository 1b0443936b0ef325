/**
 * Farms and their agents (api part 2 §2.6): an agent registers with its farm's token and gets a
 * token of its own, which it sends with every later call; its heartbeat keeps it alive and
 * tells it which of its tasks to kill.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { AgentTable, FarmTable } from '../../db/schema';
import { ApiError } from '../../errors';
import { nowIso } from '../../clock';
import { hashToken, newToken } from '../tasks/tokens';
import { staleBefore } from '../tasks/requeue';
import { agentReport } from './reports';
import type { PageSource } from '../../pagination';
import type { Registration } from '../../../agent/protocol';

export type FarmRow = Selectable<FarmTable>;
export type AgentRow = Selectable<AgentTable>;

export const invalidCredentials = () =>
  new ApiError(401, 'client_error', [
    { code: 'authentication_failed', detail: 'Invalid token.', attr: null },
  ]);

function headerToken(request: FastifyRequest, scheme: 'Farm' | 'Agent'): string | null {
  const header = request.headers.authorization ?? '';
  const match = new RegExp(`^${scheme}\\s+(\\S+)$`, 'i').exec(header);
  return match ? (match[1] as string) : null;
}

/** The farm whose token the request carries (`Authorization: Farm …`), else 401. */
export async function requireFarm(db: Db, request: FastifyRequest): Promise<FarmRow> {
  const token = headerToken(request, 'Farm');
  if (!token) throw invalidCredentials();
  const farms = await db.selectFrom('farms').selectAll().execute();
  const sent = Buffer.from(token);
  const farm = farms.find((row) => {
    const known = Buffer.from(row.token);
    return known.length === sent.length && timingSafeEqual(known, sent);
  });
  if (!farm) throw invalidCredentials();
  return farm;
}

/** The agent whose token the request carries (`Authorization: Agent …`), else 401. */
export async function requireAgent(db: Db, request: FastifyRequest): Promise<AgentRow> {
  const token = headerToken(request, 'Agent');
  const agent = token
    ? await db
        .selectFrom('agents')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst()
    : undefined;
  if (!agent) throw invalidCredentials();
  return agent;
}

export interface RegisterInput {
  hostname: string;
  slots: number;
  cpu_cores?: number | undefined;
  ram_total?: number | undefined;
  gpus?: number | undefined;
}

export async function registerAgent(
  db: Db,
  farm: FarmRow,
  input: RegisterInput,
): Promise<Registration> {
  const { token, hash } = newToken();
  const now = nowIso();
  const id = randomUUID();
  await db
    .insertInto('agents')
    .values({
      id,
      farm_id: farm.id,
      hostname: input.hostname,
      token_hash: hash,
      slots: input.slots,
      cpu_cores: input.cpu_cores ?? 1,
      ram_total: input.ram_total ?? 0,
      gpus: input.gpus ?? 0,
      last_ping: now,
      created: now,
    })
    .execute();
  return { id, token, farm: { id: farm.id, name: farm.name } };
}

export async function touchAgent(db: Db, agentId: string): Promise<void> {
  await db.updateTable('agents').set({ last_ping: nowIso() }).where('id', '=', agentId).execute();
}

/**
 * Which tasks the agent must kill: those of its own a user asked to stop, and those it still
 * runs that are no longer its own (requeued while it was silent, or deleted).
 */
export async function tasksToStop(
  db: Db,
  agentId: string,
  running: readonly string[],
): Promise<string[]> {
  const stopping = await db
    .selectFrom('tasks')
    .select('id')
    .where('agent_id', '=', agentId)
    .where('state', '=', 'stopping')
    .execute();
  const stop = new Set(stopping.map((task) => task.id));
  const reported = [...new Set(running.map((id) => id.toLowerCase()))];
  if (reported.length) {
    const held = await db
      .selectFrom('tasks')
      .select('id')
      .where('id', 'in', reported)
      .where('agent_id', '=', agentId)
      .where('state', 'in', ['running', 'stopping'])
      .execute();
    const own = new Set(held.map((task) => task.id));
    for (const id of reported) if (!own.has(id)) stop.add(id);
  }
  return [...stop];
}

export interface AgentJson {
  id: string;
  hostname: string;
  farm: { id: string; name: string };
  active: boolean;
  last_ping: string;
  slots: number;
  cpu_cores: number;
  ram_total: number;
  gpus: number;
  running_tasks: number;
  /** What its last heartbeat said of its machine (services/agents/reports.ts). */
  cpu_load: number | null;
  ram_used: number | null;
}

/** Agents as JSON, with their farms and how many tasks they hold. */
export async function agentsJson(
  db: Db,
  agents: readonly AgentRow[],
  timeoutS: number,
): Promise<AgentJson[]> {
  if (agents.length === 0) return [];
  const farms = new Map(
    (await db.selectFrom('farms').select(['id', 'name']).execute()).map((farm) => [farm.id, farm]),
  );
  const counts = new Map(
    (
      await db
        .selectFrom('tasks')
        .select(['agent_id', (eb) => eb.fn.countAll().as('count')])
        .where(
          'agent_id',
          'in',
          agents.map((agent) => agent.id),
        )
        .where('state', 'in', ['running', 'stopping'])
        .groupBy('agent_id')
        .execute()
    ).map((row) => [row.agent_id, Number(row.count)]),
  );
  const cutoff = staleBefore(timeoutS);
  return agents.map((agent) => ({
    id: agent.id,
    hostname: agent.hostname,
    farm: farms.get(agent.farm_id) ?? { id: agent.farm_id, name: '' },
    active: agent.last_ping >= cutoff,
    last_ping: agent.last_ping,
    slots: agent.slots,
    cpu_cores: agent.cpu_cores,
    ram_total: Number(agent.ram_total),
    gpus: agent.gpus,
    running_tasks: counts.get(agent.id) ?? 0,
    cpu_load: agentReport(agent.id)?.cpu_load ?? null,
    ram_used: agentReport(agent.id)?.ram_used ?? null,
  }));
}

export function agentSource(db: Db): PageSource<AgentRow> {
  return {
    count: async () =>
      Number(
        (
          await db
            .selectFrom('agents')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      ),
    fetch: ({ limit, offset }) =>
      db
        .selectFrom('agents')
        .selectAll()
        .orderBy('hostname')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute(),
  };
}

export function farmSource(db: Db): PageSource<{ id: string; name: string }> {
  return {
    count: async () =>
      Number(
        (
          await db
            .selectFrom('farms')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      ),
    fetch: ({ limit, offset }) =>
      db
        .selectFrom('farms')
        .select(['id', 'name'])
        .orderBy('name')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute(),
  };
}
