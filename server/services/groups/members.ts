/**
 * A group's members (enterprise edition): level 10 member, 100 admin. Admins add members by
 * e-mail, change levels and remove members; any member may leave; the last admin can neither
 * leave nor be demoted, or nobody could manage the group.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import type { GroupMember, User } from '../../db/schema';
import { conflict, notFound, validationError } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import {
  GROUP_LEVEL,
  checkGroupAdmin,
  requireCanChangeGroupMember,
  requireUuid,
  type GroupAccess,
} from '../../permissions';
import { isUniqueViolation } from '../../repositories/constraints';
import { lockGroup } from './groups';

export const GROUP_MEMBER_LEVELS = [GROUP_LEVEL.member, GROUP_LEVEL.admin] as const;
export type GroupMemberLevel = (typeof GROUP_MEMBER_LEVELS)[number];

export const LAST_GROUP_ADMIN = 'A group must keep at least one admin.';

export interface GroupMemberJson {
  id: string;
  level: number;
  created: string;
  user: { id: string; email: string; display_name: string };
}

// Repository -----------------------------------------------------------------------------

function selectMembers(db: Db) {
  return db
    .selectFrom('group_members')
    .innerJoin('users', 'users.id', 'group_members.user_id')
    .select([
      'group_members.id',
      'group_members.level',
      'group_members.created',
      'users.id as user_id',
      'users.email',
      'users.display_name',
    ]);
}

type MemberRow = Awaited<ReturnType<ReturnType<typeof selectMembers>['executeTakeFirstOrThrow']>>;

function memberJson(row: MemberRow): GroupMemberJson {
  return {
    id: row.id,
    level: row.level,
    created: row.created,
    user: { id: row.user_id, email: row.email, display_name: row.display_name },
  };
}

async function findMember(db: Db, groupId: string, id: string): Promise<GroupMember | undefined> {
  return db
    .selectFrom('group_members')
    .selectAll()
    .where('id', '=', id)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
}

async function otherAdmins(db: Db, member: GroupMember): Promise<number> {
  const row = await db
    .selectFrom('group_members')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('group_id', '=', member.group_id)
    .where('level', '>=', GROUP_LEVEL.admin)
    .where('id', '!=', member.id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function memberJsonById(db: Db, id: string): Promise<GroupMemberJson> {
  const row = await selectMembers(db).where('group_members.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return memberJson(row);
}

// Service --------------------------------------------------------------------------------

/** ListGroupMembers: admins first, then by name. */
export function groupMemberPages(db: Db, access: GroupAccess): PageSource<GroupMemberJson> {
  const base = () => selectMembers(db).where('group_members.group_id', '=', access.group.id);
  return {
    count: () => countRows(base()),
    async fetch({ limit, offset }) {
      const rows = await base()
        .orderBy('group_members.level', 'desc')
        .orderBy('users.display_name')
        .orderBy('users.email')
        .orderBy('group_members.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(memberJson);
    },
  };
}

export async function addGroupMember(
  db: Db,
  access: GroupAccess,
  input: { user_email: string; level: GroupMemberLevel },
): Promise<GroupMemberJson> {
  checkGroupAdmin(access);
  const groupId = access.group.id;
  const member = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', input.user_email.toLowerCase()))
    .executeTakeFirst();
  if (!member) {
    throw validationError(
      'user_email',
      'No user with this email address exists.',
      'does_not_exist',
    );
  }
  const alreadyMember = async () => {
    const existing = await db
      .selectFrom('group_members')
      .select('id')
      .where('group_id', '=', groupId)
      .where('user_id', '=', member.id)
      .executeTakeFirst();
    return existing ? conflict('This user is already a member of this group.', existing.id) : null;
  };
  const existing = await alreadyMember();
  if (existing) throw existing;
  const id = randomUUID();
  try {
    await db
      .insertInto('group_members')
      .values({ id, group_id: groupId, user_id: member.id, level: input.level, created: nowIso() })
      .execute();
  } catch (error) {
    const raced = isUniqueViolation(error) ? await alreadyMember() : null;
    throw raced ?? error;
  }
  return memberJsonById(db, id);
}

/** The member a path names, when the caller may make this change: 404 for another group's. */
export async function requireGroupMemberChange(
  db: Db,
  user: User,
  access: GroupAccess,
  memberId: string,
  action: 'update' | 'delete',
): Promise<GroupMember> {
  const member = await findMember(db, access.group.id, requireUuid(memberId));
  if (!member) throw notFound();
  requireCanChangeGroupMember(user, access, member, action);
  return member;
}

export async function updateGroupMember(
  db: Db,
  member: GroupMember,
  changes: { level?: GroupMemberLevel },
): Promise<GroupMemberJson> {
  const level = changes.level;
  if (level !== undefined && level !== member.level) {
    await db.transaction().execute(async (trx) => {
      await lockGroup(trx, member.group_id);
      const current = await findMember(trx, member.group_id, member.id);
      if (!current) throw notFound();
      if (
        current.level >= GROUP_LEVEL.admin &&
        level < GROUP_LEVEL.admin &&
        (await otherAdmins(trx, current)) === 0
      ) {
        throw validationError('level', LAST_GROUP_ADMIN, 'last_admin');
      }
      await trx.updateTable('group_members').set({ level }).where('id', '=', current.id).execute();
    });
  }
  return memberJsonById(db, member.id);
}

export async function removeGroupMember(db: Db, member: GroupMember): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockGroup(trx, member.group_id);
    const current = await findMember(trx, member.group_id, member.id);
    if (!current) throw notFound();
    if (current.level >= GROUP_LEVEL.admin && (await otherAdmins(trx, current)) === 0) {
      throw validationError('non_field_errors', LAST_GROUP_ADMIN, 'last_admin');
    }
    await trx.deleteFrom('group_members').where('id', '=', current.id).execute();
  });
}
