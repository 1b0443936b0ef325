/**
 * User groups (enterprise edition): a name and members. Any verified user may create one and
 * becomes its admin; a group never loses its last admin, or nobody could manage it. Who sees
 * and changes a group is decided in permissions.ts; this file reads and writes.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import type { Group, User } from '../../db/schema';
import { notFound } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import {
  GROUP_LEVEL,
  checkGroupAdmin,
  groupAccessOf,
  projectLimit,
  requireUuid,
  type GroupAccess,
} from '../../permissions';

export interface GroupJson {
  id: string;
  name: string;
  /** The caller's level in the group; null for a site admin who is not a member. */
  level: number | null;
  members_count: number;
  created: string;
  updated: string;
}

/** Groups exist in the enterprise edition only: elsewhere their routes are unknown. */
export function requireGroupsEnabled(app: FastifyInstance): void {
  if (!app.config.features.enterprise) throw notFound();
}

// Repository -----------------------------------------------------------------------------

/** Every group with the caller's level and its member count, one row each. */
function selectGroups(db: Db, userId: string) {
  return db
    .selectFrom('groups')
    .leftJoin('group_members as mine', (join) =>
      join.onRef('mine.group_id', '=', 'groups.id').on('mine.user_id', '=', userId),
    )
    .select(['groups.id', 'groups.name', 'groups.created', 'groups.updated', 'mine.level'])
    .select((eb) =>
      eb
        .selectFrom('group_members')
        .select((inner) => inner.fn.countAll().as('count'))
        .whereRef('group_members.group_id', '=', 'groups.id')
        .as('members_count'),
    );
}

type GroupRow = Awaited<ReturnType<ReturnType<typeof selectGroups>['executeTakeFirstOrThrow']>>;

function groupJson(row: GroupRow): GroupJson {
  return {
    id: row.id,
    name: row.name,
    level: row.level ?? null,
    // PostgreSQL counts are bigints, which pg hands over as strings.
    members_count: Number(row.members_count ?? 0),
    created: row.created,
    updated: row.updated,
  };
}

/**
 * A no-op update takes the group row's lock on PostgreSQL (SQLite serialises writers anyway),
 * so two admins demoting each other at once cannot both see the other one stay.
 */
export async function lockGroup(db: Db, groupId: string): Promise<void> {
  await db
    .updateTable('groups')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', groupId)
    .execute();
}

// Service --------------------------------------------------------------------------------

/** The group with the caller's access, or null when it does not exist for them. */
export async function findGroupAccess(
  db: Db,
  user: User | null,
  groupId: string,
): Promise<GroupAccess | null> {
  if (!user || projectLimit(user)) return null;
  const row = await db
    .selectFrom('groups')
    .leftJoin('group_members', (join) =>
      join
        .onRef('group_members.group_id', '=', 'groups.id')
        .on('group_members.user_id', '=', user.id),
    )
    .selectAll('groups')
    .select('group_members.level as member_level')
    .where('groups.id', '=', groupId)
    .executeTakeFirst();
  if (!row) return null;
  const { member_level: level, ...group } = row;
  return groupAccessOf(user, group as Group, level ?? null);
}

/** A group named in a path: 404 unless the caller sees it, 403 when they may not manage it. */
export async function requireGroup(
  db: Db,
  user: User | null,
  groupId: string,
  right: 'read' | 'admin',
): Promise<GroupAccess> {
  const access = await findGroupAccess(db, user, requireUuid(groupId));
  if (!access) throw notFound();
  return right === 'admin' ? checkGroupAdmin(access) : access;
}

/** ListGroups: the caller's groups (a site admin's: every group), by name. */
export function groupPages(db: Db, user: User): PageSource<GroupJson> {
  const base = () => {
    const query = selectGroups(db, user.id);
    return user.is_admin ? query : query.where('mine.user_id', '=', user.id);
  };
  return {
    count: () => countRows(base()),
    async fetch({ limit, offset }) {
      const rows = await base()
        .orderBy('groups.name')
        .orderBy('groups.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(groupJson);
    },
  };
}

export async function groupJsonFor(db: Db, user: User, groupId: string): Promise<GroupJson> {
  const row = await selectGroups(db, user.id).where('groups.id', '=', groupId).executeTakeFirst();
  if (!row) throw notFound();
  return groupJson(row);
}

/** CreateGroup: the creator is its first admin. */
export async function createGroup(db: Db, user: User, input: { name: string }): Promise<GroupJson> {
  const id = randomUUID();
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('groups')
      .values({ id, name: input.name, created: now, updated: now })
      .execute();
    await trx
      .insertInto('group_members')
      .values({
        id: randomUUID(),
        group_id: id,
        user_id: user.id,
        level: GROUP_LEVEL.admin,
        created: now,
      })
      .execute();
  });
  return groupJsonFor(db, user, id);
}

export async function renameGroup(
  db: Db,
  user: User,
  access: GroupAccess,
  changes: { name?: string },
): Promise<GroupJson> {
  if (changes.name !== undefined) {
    await db
      .updateTable('groups')
      .set({ name: changes.name, updated: nowIso() })
      .where('id', '=', access.group.id)
      .execute();
  }
  return groupJsonFor(db, user, access.group.id);
}

/** Its members and its places in projects go with it (foreign keys cascade). */
export async function deleteGroup(db: Db, access: GroupAccess): Promise<void> {
  await db.deleteFrom('groups').where('id', '=', access.group.id).execute();
}
