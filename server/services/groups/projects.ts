/**
 * Groups as members of projects (enterprise edition): a `corpus_groups` row gives every member
 * of a group a level on a project (guest, contributor, admin, as a membership does); the
 * rights follow in permissions.ts. The project's members API (routes/memberships.ts) creates,
 * lists, changes and removes these entries beside the users' memberships.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import type { CorpusGroup, User } from '../../db/schema';
import { conflict, invalidPk, notFound } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import {
  checkRight,
  findCorpusAccess,
  readableCorpusIds,
  requireCanChangeCorpusGroup,
  type GroupAccess,
} from '../../permissions';
import { isUniqueViolation } from '../../repositories/constraints';
import type { MembershipLevel } from '../memberships';
import { findGroupAccess } from './groups';

/** A group's entry in a project's members list. */
export interface GroupMembershipJson {
  id: string;
  level: number;
  created: string;
  group: { id: string; name: string };
}

/** One of a group's projects, as its page lists them. */
export interface GroupProjectJson {
  id: string;
  level: number;
  created: string;
  corpus: { id: string; name: string };
}

function selectGrants(db: Db) {
  return db
    .selectFrom('corpus_groups')
    .innerJoin('groups', 'groups.id', 'corpus_groups.group_id')
    .select([
      'corpus_groups.id',
      'corpus_groups.level',
      'corpus_groups.created',
      'groups.id as group_id',
      'groups.name as group_name',
    ]);
}

async function grantJson(db: Db, id: string): Promise<GroupMembershipJson> {
  const row = await selectGrants(db).where('corpus_groups.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return {
    id: row.id,
    level: row.level,
    created: row.created,
    group: { id: row.group_id, name: row.group_name },
  };
}

export async function findCorpusGroup(db: Db, id: string): Promise<CorpusGroup | undefined> {
  return db.selectFrom('corpus_groups').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * CreateMembership with `group_id`: project admins give a group they can see a level on the
 * project. A project or group the caller cannot see is an invalid value, as for any reference
 * in a body; the group already there is a conflict naming its entry.
 */
export async function createCorpusGroup(
  db: Db,
  user: User,
  input: { corpus_id: string; group_id: string; level: MembershipLevel },
): Promise<GroupMembershipJson> {
  const access = await findCorpusAccess(db, user, input.corpus_id);
  if (!access) throw invalidPk('corpus_id', input.corpus_id);
  checkRight(access, 'admin');
  const group = await findGroupAccess(db, user, input.group_id.toLowerCase());
  if (!group) throw invalidPk('group_id', input.group_id);
  const corpusId = access.corpus.id;
  const alreadyThere = async () => {
    const existing = await db
      .selectFrom('corpus_groups')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .where('group_id', '=', group.group.id)
      .executeTakeFirst();
    return existing
      ? conflict('This group is already a member of this project.', existing.id)
      : null;
  };
  const existing = await alreadyThere();
  if (existing) throw existing;
  const id = randomUUID();
  try {
    await db
      .insertInto('corpus_groups')
      .values({
        id,
        corpus_id: corpusId,
        group_id: group.group.id,
        level: input.level,
        created: nowIso(),
      })
      .execute();
  } catch (error) {
    const raced = isUniqueViolation(error) ? await alreadyThere() : null;
    throw raced ?? error;
  }
  return grantJson(db, id);
}

/**
 * The group's entry a membership id names, when the caller may make this change: 404 when
 * they cannot see the project, 403 when they can but may not change it.
 */
export async function requireCorpusGroupChange(
  db: Db,
  user: User,
  grant: CorpusGroup,
  action: 'update' | 'delete',
): Promise<CorpusGroup> {
  const access = await findCorpusAccess(db, user, grant.corpus_id);
  if (!access) throw notFound();
  requireCanChangeCorpusGroup(access, await findGroupAccess(db, user, grant.group_id), action);
  return grant;
}

export async function updateCorpusGroup(
  db: Db,
  grant: CorpusGroup,
  changes: { level?: MembershipLevel },
): Promise<GroupMembershipJson> {
  if (changes.level !== undefined) {
    await db
      .updateTable('corpus_groups')
      .set({ level: changes.level })
      .where('id', '=', grant.id)
      .execute();
  }
  return grantJson(db, grant.id);
}

export async function deleteCorpusGroup(db: Db, grant: CorpusGroup): Promise<void> {
  await db.deleteFrom('corpus_groups').where('id', '=', grant.id).execute();
}

/** A group's projects, those the caller can read only: a group never reveals a project. */
export function groupProjectPages(
  db: Db,
  user: User,
  access: GroupAccess,
): PageSource<GroupProjectJson> {
  const base = () =>
    db
      .selectFrom('corpus_groups')
      .innerJoin('corpora', 'corpora.id', 'corpus_groups.corpus_id')
      .where('corpus_groups.group_id', '=', access.group.id)
      .where('corpora.id', 'in', readableCorpusIds(db, user));
  return {
    count: () => countRows(base().select('corpus_groups.id')),
    async fetch({ limit, offset }) {
      const rows = await base()
        .select([
          'corpus_groups.id',
          'corpus_groups.level',
          'corpus_groups.created',
          'corpora.id as corpus_id',
          'corpora.name as corpus_name',
        ])
        .orderBy('corpora.name')
        .orderBy('corpora.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        level: row.level,
        created: row.created,
        corpus: { id: row.corpus_id, name: row.corpus_name },
      }));
    },
  };
}
