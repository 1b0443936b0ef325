/**
 * The people the worker suites act as: workers are instance-wide, so what matters is whether a
 * user is verified and may manage workers, not project memberships (except for the calls under
 * a project, which use the usual project cast).
 */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client } from '../harness';
import { makeCast, type Cast } from '../actors';

export const WORKER_ROLES = {
  admin: { displayName: 'Site admin', admin: true },
  manager: { displayName: 'Worker manager' },
  verified: { displayName: 'Verified' },
  unverified: { displayName: 'Unverified', verified: false },
};

export type WorkerRole = keyof typeof WORKER_ROLES;
export type WorkerCast = Cast<WorkerRole>;

export async function makeWorkerCast(app: FastifyInstance): Promise<WorkerCast> {
  const cast = await makeCast(app, WORKER_ROLES);
  await app.db
    .updateTable('users')
    .set({ can_manage_workers: 1 })
    .where('id', '=', cast.manager.id)
    .execute();
  return cast;
}

export function client(app: FastifyInstance, cast: WorkerCast, role: WorkerRole | 'anonymous') {
  return new Client(app, role === 'anonymous' ? null : cast[role].token);
}

let serial = 0;

/** A worker published through the API by a manager; its JSON. */
export async function publishWorker(
  manager: Client,
  body: Record<string, unknown> = {},
): Promise<{ id: string; slug: string; name: string }> {
  serial += 1;
  const response = await manager.post('workers/', {
    name: `Worker ${serial}`,
    slug: `worker-${serial}-${Math.random().toString(36).slice(2, 8)}`,
    type: 'recognizer',
    ...body,
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

/** A version of the worker published through the API; its JSON. */
export async function publishVersion(
  manager: Client,
  workerId: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; version: number | null; [key: string]: unknown }> {
  const response = await manager.post(`workers/${workerId}/versions/`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A schema using every kind of field, groups included. */
export const FULL_SCHEMA = {
  batch: { title: 'Batch size', type: 'int', default: 8 },
  threshold: { title: 'Threshold', type: 'float', required: false },
  language: { title: 'Language', type: 'enum', choices: ['fra', 'eng'], default: 'fra' },
  notes: { title: 'Notes', type: 'text', required: false, multiline: true },
  model: { title: 'Model', type: 'model', required: false },
  tags: { title: 'Tags', type: 'list', subtype: 'string', required: false },
  options: {
    title: 'Options',
    type: 'group',
    children: {
      deskew: { title: 'Deskew', type: 'bool', default: true },
      labels: { title: 'Labels', type: 'dict', required: false },
    },
  },
};
