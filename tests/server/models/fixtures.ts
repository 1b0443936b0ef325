/**
 * The cast of the model suites: a model's admin (its creator), a contributor and a guest of it,
 * a verified user outside it, an unverified member, and a site admin, plus models made through
 * the API with those members.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { clientFor, makeCast, type Cast } from '../actors';
import type { Client } from '../harness';

export const MODEL_ROLES = {
  owner: { displayName: 'Owner' },
  contributor: { displayName: 'Contributor' },
  guest: { displayName: 'Guest' },
  outsider: { displayName: 'Outsider' },
  siteAdmin: { displayName: 'Site admin', admin: true },
  unverified: { displayName: 'Unverified', verified: false },
};

export type ModelRole = keyof typeof MODEL_ROLES;
export type ModelCast = Cast<ModelRole>;

export function makeModelCast(app: FastifyInstance): Promise<ModelCast> {
  return makeCast(app, MODEL_ROLES);
}

export function clientAs(
  app: FastifyInstance,
  cast: ModelCast,
  role: ModelRole | 'anonymous',
): Client {
  return clientFor(app, cast, role);
}

const MEMBER_LEVELS = { contributor: 50, guest: 10, unverified: 100 } as const;

/** A model made by the owner, joined by the contributor, the guest and the unverified user. */
export async function makeModel(
  app: FastifyInstance,
  cast: ModelCast,
  body: Record<string, unknown> = {},
): Promise<string> {
  const owner = clientAs(app, cast, 'owner');
  const created = await owner.post('models/', {
    name: `Model ${randomUUID().slice(0, 8)}`,
    ...body,
  });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  for (const [role, level] of Object.entries(MEMBER_LEVELS)) {
    const added = await owner.post('memberships/', {
      model_id: id,
      user_email: cast[role as keyof typeof MEMBER_LEVELS].email,
      level,
    });
    expect(added.statusCode).toBe(201);
  }
  if (body.public !== undefined || body.archived !== undefined) {
    const patched = await owner.patch(`model/${id}/`, {
      ...(body.public !== undefined ? { public: body.public } : {}),
      ...(body.archived !== undefined ? { archived: body.archived } : {}),
    });
    expect(patched.statusCode).toBe(200);
  }
  return id;
}

/** A version made by the owner, its archive uploaded when `content` is given. */
export async function makeVersion(
  app: FastifyInstance,
  cast: ModelCast,
  modelId: string,
  body: Record<string, unknown> = {},
  content?: Buffer,
): Promise<string> {
  const owner = clientAs(app, cast, 'owner');
  const created = await owner.post(`model/${modelId}/versions/`, body);
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  if (content) {
    const uploaded = await owner.put(`modelversion/${id}/upload/`, content, {
      'content-type': 'application/zstd',
    });
    expect(uploaded.statusCode).toBe(200);
  }
  return id;
}

/** A worker inserted directly, as the workers API is not what these suites test. */
export async function insertWorker(app: FastifyInstance, name = 'Recognizer'): Promise<string> {
  const id = randomUUID();
  await app.db
    .insertInto('workers')
    .values({
      id,
      name,
      slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${id.slice(0, 8)}`,
      type: 'recognizer',
      description: '',
      repository_url: null,
      archived: 0,
      created: new Date().toISOString(),
    })
    .execute();
  return id;
}
