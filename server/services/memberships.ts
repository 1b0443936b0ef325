/**
 * Who belongs to a corpus and at which level. Admins manage the list, members may leave,
 * and a corpus never loses its last admin: nobody could manage it afterwards.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { nowIso } from '../clock';
import type { Db } from '../db';
import type { Membership, User } from '../db/schema';
import { conflict, notFound, validationError } from '../errors';
import { countRows, type PageSource } from '../pagination';
import type { GroupMembershipJson } from './groups/projects';
import {
  LEVEL,
  checkRight,
  findCorpusAccess,
  requireCanChangeMembership,
  requireCanListMembers,
  requireCorpusRight,
  requireUuid,
  type CorpusIds,
} from '../permissions';
import { isUniqueViolation } from '../repositories/constraints';

export const MEMBERSHIP_LEVELS = [LEVEL.guest, LEVEL.contributor, LEVEL.admin] as const;
export type MembershipLevel = (typeof MEMBERSHIP_LEVELS)[number];

const LAST_ADMIN = 'A project must keep at least one admin.';

export interface MembershipJson {
  id: string;
  level: number;
  created: string;
  user: { id: string; email: string; display_name: string };
}

// Repository -----------------------------------------------------------------------------

function selectMemberships(db: Db) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'memberships.id',
      'memberships.level',
      'memberships.created',
      'users.id as user_id',
      'users.email',
      'users.display_name',
    ]);
}

type MembershipRow = Awaited<
  ReturnType<ReturnType<typeof selectMemberships>['executeTakeFirstOrThrow']>
>;

function membershipJson(row: MembershipRow): MembershipJson {
  return {
    id: row.id,
    level: row.level,
    created: row.created,
    user: { id: row.user_id, email: row.email, display_name: row.display_name },
  };
}

async function findMembership(db: Db, id: string): Promise<Membership | undefined> {
  return db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertMembership(
  db: Db,
  values: { corpusId: string; userId: string; level: number },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('memberships')
    .values({
      id,
      corpus_id: values.corpusId,
      user_id: values.userId,
      level: values.level,
      created: nowIso(),
    })
    .execute();
  return id;
}

/** Members per corpus, for a corpus' `authorized_users`. */
export async function memberCounts(db: Db, corpusIds: CorpusIds): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (Array.isArray(corpusIds) && corpusIds.length === 0) return counts;
  const rows = await db
    .selectFrom('memberships')
    .select((eb) => ['corpus_id', eb.fn.countAll().as('count')])
    .where('corpus_id', 'in', corpusIds as string[])
    .groupBy('corpus_id')
    .execute();
  // PostgreSQL counts are bigints, which pg hands over as strings.
  for (const row of rows) counts.set(row.corpus_id, Number(row.count));
  return counts;
}

/**
 * A no-op update takes the corpus row's lock on PostgreSQL (SQLite serialises writers
 * anyway), so two admins demoting each other at once cannot both see the other one stay.
 */
async function lockCorpus(db: Db, corpusId: string): Promise<void> {
  await db
    .updateTable('corpora')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', corpusId)
    .execute();
}

async function otherAdmins(db: Db, membership: Membership): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('corpus_id', '=', membership.corpus_id)
    .where('level', '>=', LEVEL.admin)
    .where('id', '!=', membership.id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

// Service --------------------------------------------------------------------------------

/**
 * The corpus' members, best level first: users, and the groups given the corpus (enterprise
 * edition) as entries naming the group instead of a user.
 */
export async function membershipPages(
  db: Db,
  user: User | null,
  corpusId: string,
): Promise<PageSource<MembershipJson | GroupMembershipJson>> {
  const access = await requireCorpusRight(db, user, corpusId, 'read');
  requireCanListMembers(user, access);
  const id = access.corpus.id;
  return {
    async count() {
      const [users, groups] = await Promise.all([
        countRows(db.selectFrom('memberships').select('id').where('corpus_id', '=', id)),
        countRows(db.selectFrom('corpus_groups').select('id').where('corpus_id', '=', id)),
      ]);
      return users + groups;
    },
    async fetch({ limit, offset }) {
      // One ordered page over both kinds of entry: a user's name and a group's sort together.
      const users = db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select([
          'memberships.id',
          'memberships.level',
          'memberships.created',
          'users.id as member_id',
          'users.display_name as name',
          'users.email',
          sql<number>`0`.as('is_group'),
        ])
        .where('memberships.corpus_id', '=', id);
      const groups = db
        .selectFrom('corpus_groups')
        .innerJoin('groups', 'groups.id', 'corpus_groups.group_id')
        .select([
          'corpus_groups.id',
          'corpus_groups.level',
          'corpus_groups.created',
          'groups.id as member_id',
          'groups.name as name',
          sql<string>`''`.as('email'),
          sql<number>`1`.as('is_group'),
        ])
        .where('corpus_groups.corpus_id', '=', id);
      const rows = await db
        .selectFrom(users.unionAll(groups).as('entries'))
        .selectAll()
        .orderBy('level', 'desc')
        .orderBy('name')
        .orderBy('email')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((row) =>
        Number(row.is_group)
          ? {
              id: row.id,
              level: row.level,
              created: row.created,
              group: { id: row.member_id, name: row.name },
            }
          : {
              id: row.id,
              level: row.level,
              created: row.created,
              user: { id: row.member_id, email: row.email, display_name: row.name },
            },
      );
    },
  };
}

export interface NewMembershipInput {
  corpus_id: string;
  user_email: string;
  level: MembershipLevel;
}

export async function createMembership(
  db: Db,
  user: User,
  input: NewMembershipInput,
): Promise<MembershipJson> {
  // As for every reference in a body: a corpus the caller cannot see is an invalid value.
  const access = await findCorpusAccess(db, user, input.corpus_id);
  if (!access) {
    throw validationError(
      'corpus_id',
      `Invalid pk "${input.corpus_id}" - object does not exist.`,
      'does_not_exist',
    );
  }
  checkRight(access, 'admin');
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
      .selectFrom('memberships')
      .select('id')
      .where('corpus_id', '=', access.corpus.id)
      .where('user_id', '=', member.id)
      .executeTakeFirst();
    return existing
      ? conflict('This user is already a member of this project.', existing.id)
      : null;
  };
  const existing = await alreadyMember();
  if (existing) throw existing;
  let id: string;
  try {
    id = await insertMembership(db, {
      corpusId: access.corpus.id,
      userId: member.id,
      level: input.level,
    });
  } catch (error) {
    const raced = isUniqueViolation(error) ? await alreadyMember() : null;
    throw raced ?? error;
  }
  const row = await selectMemberships(db)
    .where('memberships.id', '=', id)
    .executeTakeFirstOrThrow();
  return membershipJson(row);
}

/**
 * The membership, when the caller may make this change to it: 404 when they cannot see its
 * corpus, 403 when they can but may not change it. Asked before the body is read.
 */
export async function requireMembershipChange(
  db: Db,
  user: User,
  id: string,
  action: 'update' | 'delete',
): Promise<Membership> {
  const membership = await findMembership(db, requireUuid(id));
  if (!membership) throw notFound();
  const access = await findCorpusAccess(db, user, membership.corpus_id);
  if (!access) throw notFound();
  requireCanChangeMembership(user, access, membership, action);
  return membership;
}

export async function updateMembership(
  db: Db,
  membership: Membership,
  changes: { level?: MembershipLevel },
): Promise<MembershipJson> {
  const level = changes.level;
  if (level !== undefined && level !== membership.level) {
    await db.transaction().execute(async (trx) => {
      await lockCorpus(trx, membership.corpus_id);
      const current = await findMembership(trx, membership.id);
      if (!current) throw notFound();
      if (
        current.level >= LEVEL.admin &&
        level < LEVEL.admin &&
        (await otherAdmins(trx, current)) === 0
      ) {
        throw validationError('level', LAST_ADMIN, 'last_admin');
      }
      await trx.updateTable('memberships').set({ level }).where('id', '=', current.id).execute();
    });
  }
  const row = await selectMemberships(db)
    .where('memberships.id', '=', membership.id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return membershipJson(row);
}

export async function deleteMembership(db: Db, membership: Membership): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockCorpus(trx, membership.corpus_id);
    const current = await findMembership(trx, membership.id);
    if (!current) throw notFound();
    if (current.level >= LEVEL.admin && (await otherAdmins(trx, current)) === 0) {
      throw validationError('non_field_errors', LAST_ADMIN, 'last_admin');
    }
    await trx.deleteFrom('memberships').where('id', '=', current.id).execute();
  });
}
