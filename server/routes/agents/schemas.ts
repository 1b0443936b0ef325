/**
 * What the farm, agent and agent task calls answer (services/agents/, agent/protocol.ts): farms,
 * agents as site admins list them, and what an agent gets when it registers, beats and claims.
 */
import { z } from 'zod';
import { task } from '../../openapi/process';

const uuid = z.uuid();

/** A route's schema in the ponos tag: its operation id and its parts. */
export const ponosSchema = <T extends object>(operationId: string, parts: T) => ({
  schema: { operationId, tags: ['ponos'], ...parts },
});

export const farmObject = z.object({ id: uuid, name: z.string() }).meta({ id: 'Farm' });

export const agentObject = z
  .object({
    id: uuid,
    hostname: z.string(),
    farm: farmObject,
    active: z.boolean().describe('It sent a heartbeat within the agent timeout'),
    last_ping: z.string(),
    slots: z.number().int(),
    cpu_cores: z.number().int(),
    ram_total: z.number().int(),
    gpus: z.number().int(),
    running_tasks: z.number().int(),
    cpu_load: z
      .number()
      .nullable()
      .describe("Its last heartbeat's 1-minute load average per core; null before one says"),
    ram_used: z
      .number()
      .int()
      .nullable()
      .describe('The memory in use its last heartbeat reported, in bytes; null before one says'),
  })
  .meta({ id: 'Agent' });

export const agentWithTasks = agentObject.extend({ running: z.array(task) });

export const registration = z.object({
  id: uuid,
  token: z.string().describe("The agent's token for its next calls"),
  farm: farmObject,
});

export const heartbeatAnswer = z.object({
  stop: z.array(uuid).describe('The tasks the agent must kill'),
});

const claimedTask = z
  .object({
    id: uuid,
    process_id: uuid,
    corpus_id: uuid.nullable(),
    worker_run_id: uuid.nullable(),
    slug: z.string(),
    run: z.number().int(),
    chunk: z.number().int().nullable(),
    token: z.string().describe("The task's token, as the worker's API key"),
    command: z.array(z.string()),
    elements: z.array(z.object({ id: uuid, type: z.string() })),
    env: z.record(z.string(), z.string()),
  })
  .meta({ id: 'ClaimedTask' });

export const claimAnswer = z.object({ tasks: z.array(claimedTask) });
