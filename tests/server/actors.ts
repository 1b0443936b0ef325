/**
 * The people a suite acts as and the projects they share. A suite picks its cast by role name;
 * the name decides whether the user joins the projects makeCorpus makes.
 */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client, createTestUser, type TestUser, type TestUserOptions } from './harness';

/** A project's owner, a contributor and a guest in it, someone outside it, and a site admin. */
export const PROJECT_ROLES = {
  owner: { displayName: 'Owner' },
  contributor: { displayName: 'Contributor' },
  guest: { displayName: 'Guest' },
  outsider: { displayName: 'Outsider' },
  siteAdmin: { displayName: 'Site admin', admin: true },
} satisfies Record<string, TestUserOptions>;

export const UNVERIFIED: TestUserOptions = { displayName: 'Unverified', verified: false };

export type ProjectRole = keyof typeof PROJECT_ROLES;
export type Cast<Role extends string> = Record<Role, TestUser>;

/** One user per role, made in the order listed. */
export async function makeCast<Role extends string>(
  app: FastifyInstance,
  roles: Record<Role, TestUserOptions>,
): Promise<Cast<Role>> {
  const cast = {} as Cast<Role>;
  for (const role of Object.keys(roles) as Role[]) {
    cast[role] = await createTestUser(app, roles[role]);
  }
  return cast;
}

/** The cast most suites act as; the unverified user is an admin of every project made. */
export type Actors = Cast<ProjectRole | 'unverifiedAdmin'>;
export type Role = keyof Actors | 'anonymous';

export function makeActors(app: FastifyInstance): Promise<Actors> {
  return makeCast(app, { ...PROJECT_ROLES, unverifiedAdmin: UNVERIFIED });
}

export function clientFor<Role extends string>(
  app: FastifyInstance,
  cast: Cast<Role>,
  role: NoInfer<Role> | 'anonymous',
): Client {
  return new Client(app, role === 'anonymous' ? null : cast[role].token);
}

/** The roles that join a project once its owner has made it, at their membership level. */
const MEMBER_LEVELS = { contributor: 50, guest: 10, unverifiedAdmin: 100 } as const;

/** A project made through the API by the owner; each member role of the cast then joins it. */
export async function makeCorpus(
  app: FastifyInstance,
  cast: Cast<'owner' | 'contributor' | 'guest'> & Partial<Cast<'unverifiedAdmin'>>,
  body: Record<string, unknown>,
): Promise<string> {
  const owner = new Client(app, cast.owner.token);
  const created = await owner.post('corpus/', body);
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  for (const [role, level] of Object.entries(MEMBER_LEVELS)) {
    const member = cast[role as keyof typeof MEMBER_LEVELS];
    if (!member) continue;
    const added = await owner.post('memberships/', {
      corpus_id: id,
      user_email: member.email,
      level,
    });
    expect(added.statusCode).toBe(201);
  }
  return id;
}

export interface ActorsAndProjects {
  actors: Actors;
  privateId: string;
  publicId: string;
}

/** The usual start of a suite: the cast, then a private and a public project they all join. */
export async function makeActorsAndProjects(
  app: FastifyInstance,
  names = { private: 'Private', public: 'Public' },
): Promise<ActorsAndProjects> {
  const actors = await makeActors(app);
  const privateId = await makeCorpus(app, actors, { name: names.private });
  const publicId = await makeCorpus(app, actors, { name: names.public, public: true });
  return { actors, privateId, publicId };
}
