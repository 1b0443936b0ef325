/**
 * Every rights decision of the API lives here. Corpus memberships carry a level:
 * guest 10 (read), contributor 50 (read, write), admin 100 (read, write, admin).
 * A user's level is the best of their own membership's and those of the groups they belong to
 * (enterprise edition: `corpus_groups` grants a group a level, `group_members` lists its users).
 * Site admins hold every right; a public corpus is readable by anyone, anonymous included.
 * A corpus the caller cannot read does not exist for them (404), as in Arkindex.
 */
import type { Expression, ExpressionBuilder, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Db } from './db';
import type { Corpus, Database, Element, Group, GroupMember, Membership, User } from './db/schema';
import { notAuthenticated, notFound, permissionDenied } from './errors';
import { chunks, INSERT_CHUNK } from './db/chunks';
import { reusedQuery } from './db/reusedQuery';
import { noteRead } from './cors';

export const LEVEL = { guest: 10, contributor: 50, admin: 100 } as const;
export type Right = 'read' | 'write' | 'admin';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in a path that is not a UUID names nothing: the same 404 as an unknown id. */
export function requireUuid(id: string): string {
  if (!UUID.test(id)) throw notFound();
  return id.toLowerCase();
}

export function rightsForLevel(level: number | null, isPublic: boolean): Right[] {
  const rights: Right[] = [];
  if ((level ?? 0) >= LEVEL.guest || isPublic) rights.push('read');
  if ((level ?? 0) >= LEVEL.contributor) rights.push('write');
  if ((level ?? 0) >= LEVEL.admin) rights.push('admin');
  return rights;
}

/**
 * A task token acts as the process' creator on that process' project only: the user object the
 * request carries is marked with that project, and every check below reads the mark.
 */
const onlyProjects = new WeakMap<User, string>();

export function limitToProject(user: User, corpusId: string): User {
  onlyProjects.set(user, corpusId);
  return user;
}

/** The one project a task token's user may reach, or null for an ordinary user. */
export function projectLimit(user: User | null): string | null {
  return user ? (onlyProjects.get(user) ?? null) : null;
}

export function rightsFor(
  user: User | null,
  level: number | null,
  corpus: Pick<Corpus, 'public'>,
): Right[] {
  if (user?.is_admin) return ['read', 'write', 'admin'];
  return rightsForLevel(user ? level : null, corpus.public === 1);
}

/**
 * The level a user holds on a corpus through the groups they belong to (enterprise edition),
 * as a scalar subquery on `corpusId` (a column of the outer query, or a value): joined into the
 * query that reads the corpus, so rights through groups cost no extra round trip.
 */
export function groupLevel(
  eb: ExpressionBuilder<Database, keyof Database>,
  corpusId: Expression<string | null>,
  userId: string,
) {
  return eb
    .selectFrom('corpus_groups')
    .innerJoin('group_members', 'group_members.group_id', 'corpus_groups.group_id')
    .select((inner) => inner.fn.max<number>('corpus_groups.level').as('level'))
    .where('corpus_groups.corpus_id', '=', corpusId)
    .where('group_members.user_id', '=', userId);
}

/** The corpus ids a user reaches through groups, as a subquery. */
function groupCorpusIds(db: Db, userId: string) {
  return db
    .selectFrom('corpus_groups')
    .innerJoin('group_members', 'group_members.group_id', 'corpus_groups.group_id')
    .select('corpus_groups.corpus_id')
    .where('group_members.user_id', '=', userId);
}

/** A user's level on a corpus: the best of their own membership's and their groups'. */
export function bestLevel(
  own: number | null,
  throughGroups: number | string | null,
): number | null {
  // PostgreSQL may hand an aggregate over as text.
  const group = throughGroups === null ? null : Number(throughGroups);
  if (own === null) return group;
  return group === null ? own : Math.max(own, group);
}

export async function membershipLevel(
  db: Db,
  userId: string,
  corpusId: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('corpora')
    .leftJoin('memberships', (join) =>
      join.onRef('memberships.corpus_id', '=', 'corpora.id').on('memberships.user_id', '=', userId),
    )
    .select('memberships.level')
    .select((eb) => groupLevel(eb, eb.ref('corpora.id'), userId).as('group_level'))
    .where('corpora.id', '=', corpusId)
    .executeTakeFirst();
  return row ? bestLevel(row.level, row.group_level) : null;
}

/**
 * The ids of the corpora the caller can read, as a subquery to filter lists with, so a list
 * never has to load ids into memory and never disagrees with requireCorpusRight.
 */
export function readableCorpusIds(
  db: Db,
  user: User | null,
): SelectQueryBuilder<Database, 'corpora', { id: string }> {
  const limit = projectLimit(user);
  // An anonymous caller's list holds public projects only; anyone else's may hold more.
  noteRead(!user);
  const all = limit
    ? db.selectFrom('corpora').select('corpora.id').where('corpora.id', '=', limit)
    : db.selectFrom('corpora').select('corpora.id');
  if (user?.is_admin) return all;
  if (!user) return all.where('corpora.public', '=', 1);
  return all.where((eb) =>
    eb.or([
      eb('corpora.public', '=', 1),
      eb(
        'corpora.id',
        'in',
        eb
          .selectFrom('memberships')
          .select('memberships.corpus_id')
          .where('memberships.user_id', '=', user.id),
      ),
      eb('corpora.id', 'in', groupCorpusIds(db, user.id)),
    ]),
  );
}

/** Which of these element ids (lower-case) are elements of projects the user can read. */
export async function readableElementIds(
  db: Db,
  user: User | null,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(ids, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('elements')
      .select('id')
      .where('id', 'in', part)
      .where('corpus_id', 'in', readableCorpusIds(db, user))
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Corpus ids given as a list, or as a subquery such as readableCorpusIds. */
export type CorpusIds = readonly string[] | SelectQueryBuilder<Database, 'corpora', { id: string }>;

export interface CorpusAccess {
  corpus: Corpus;
  rights: Right[];
  /** The caller's membership level, null for non-members (site admins included). */
  level: number | null;
}

const DENIED: Record<Right, string> = {
  read: 'You do not have read access to this project.',
  write: 'You do not have contributor access to this project.',
  admin: 'You do not have admin access to this project.',
};

/**
 * The columns of `corpora`, to read a corpus joined to another table under `corpus_` names:
 * the type check below fails when the table gains a column this list lacks.
 */
const CORPUS_COLUMNS = [
  'id',
  'name',
  'description',
  'public',
  'indexable',
  'top_level_type',
  'created',
  'updated',
] as const satisfies readonly (keyof Corpus)[];
type MissingCorpusColumn = Exclude<keyof Corpus, (typeof CORPUS_COLUMNS)[number]>;
const everyCorpusColumn: [MissingCorpusColumn] extends [never] ? true : never = true;
void everyCorpusColumn;

/** The access a caller has, from a corpus and their membership level on it. */
function accessOf(user: User | null, corpus: Corpus, level: number | null): CorpusAccess | null {
  noteRead(corpus.public === 1);
  const rights = rightsFor(user, level, corpus);
  if (!rights.includes('read')) return null;
  return { corpus, rights, level };
}

/**
 * The corpus with the caller's rights, or null when it does not exist or is unreadable: the
 * corpus and the caller's membership in one query.
 */
export async function findCorpusAccess(
  db: Db,
  user: User | null,
  corpusId: string,
): Promise<CorpusAccess | null> {
  if (!UUID.test(corpusId)) return null;
  const limit = projectLimit(user);
  if (limit && limit !== corpusId.toLowerCase()) return null;
  const row = await db
    .selectFrom('corpora')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.corpus_id', '=', 'corpora.id')
        .on('memberships.user_id', '=', user?.id ?? ''),
    )
    .selectAll('corpora')
    .select('memberships.level as member_level')
    .select((eb) => groupLevel(eb, eb.ref('corpora.id'), user?.id ?? '').as('group_level'))
    .where('corpora.id', '=', corpusId.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  const { member_level: level, group_level: throughGroups, ...corpus } = row;
  return accessOf(user, corpus, user ? bestLevel(level, throughGroups) : null);
}

/** Throws the 403 for a readable corpus on which the caller lacks `right`. */
export function checkRight(access: CorpusAccess, right: Right): CorpusAccess {
  if (!access.rights.includes(right)) throw permissionDenied(DENIED[right]);
  return access;
}

/** The corpus with the caller's rights; 404 when unreadable, 403 when the right is missing. */
export async function requireCorpusRight(
  db: Db,
  user: User | null,
  corpusId: string,
  right: Right,
): Promise<CorpusAccess> {
  const access = await findCorpusAccess(db, user, corpusId);
  if (!access) throw notFound();
  return checkRight(access, right);
}

/** The tables whose every row belongs to exactly one project. */
export type ProjectTable = {
  [T in keyof Database]: Database[T] extends { id: string; corpus_id: string } ? T : never;
}[keyof Database];

/**
 * A row of a project's own table (a class, an allowed metadata…) named in a path under that
 * project: 404 when the project is unreadable or the row is not one of its own, so an id never
 * reveals another project's rows; 403 only for a row the caller can see.
 */
export async function requireProjectRowRight<T extends ProjectTable>(
  db: Db,
  user: User | null,
  corpusId: string,
  table: T,
  rowId: string,
  right: Right,
): Promise<{ row: Selectable<Database[T]>; access: CorpusAccess }> {
  const access = await findCorpusAccess(db, user, corpusId);
  if (!access) throw notFound();
  // Kysely cannot resolve the columns of a table given as a type parameter; every project
  // table has these two, so the query is typed on them alone.
  const byColumns = db as unknown as Kysely<Record<string, { id: string; corpus_id: string }>>;
  const row = await byColumns
    .selectFrom(table as string)
    .selectAll()
    .where('id', '=', requireUuid(rowId))
    .where('corpus_id', '=', access.corpus.id)
    .executeTakeFirst();
  if (!row) throw notFound();
  checkRight(access, right);
  return { row: row as Selectable<Database[T]>, access };
}

/** Creating a project needs a verified e-mail (or site admin). */
export function canCreateCorpus(user: User | null): boolean {
  return !!user && (user.verified_email === 1 || user.is_admin === 1);
}

export function requireCanCreateCorpus(user: User): void {
  if (!canCreateCorpus(user)) {
    throw permissionDenied('You must verify your email address to perform this action.');
  }
}

/** The site administration (/admin/…): site admins only, whatever their memberships. */
export function requireSiteAdmin(user: User | null): User {
  if (!user) throw notAuthenticated();
  if (!user.is_admin || projectLimit(user)) {
    throw permissionDenied('Only site administrators can do this.');
  }
  return user;
}

/**
 * The member list shows e-mail addresses, so a public corpus does not open it to everyone:
 * members and site admins only.
 */
export function requireCanListMembers(user: User | null, access: CorpusAccess): void {
  if (user?.is_admin || access.level !== null) return;
  if (!user) throw notAuthenticated();
  throw permissionDenied('Only members of this project can see its members.');
}

/** Admins manage memberships; anyone may leave a project, which is deleting their own one. */
export function requireCanChangeMembership(
  user: User,
  access: CorpusAccess,
  membership: Pick<Membership, 'user_id'>,
  action: 'update' | 'delete',
): void {
  if (action === 'delete' && membership.user_id === user.id) return;
  checkRight(access, 'admin');
}

export interface ElementAccess {
  element: Element;
  access: CorpusAccess;
}

/**
 * The element, its corpus and the caller's membership in one query: every element route starts
 * here, and each query saved is saved on every call (built once: reusedQuery.ts).
 */
const elementAccessRows = reusedQuery((db: Db, elementId: string, userId: string) =>
  db
    .selectFrom('elements')
    .innerJoin('corpora', 'corpora.id', 'elements.corpus_id')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.corpus_id', '=', 'elements.corpus_id')
        .on('memberships.user_id', '=', userId),
    )
    .selectAll('elements')
    .select(CORPUS_COLUMNS.map((column) => `corpora.${column} as corpus__${column}` as const))
    .select('memberships.level as member_level')
    .select((eb) => groupLevel(eb, eb.ref('elements.corpus_id'), userId).as('group_level'))
    .where('elements.id', '=', elementId),
);

/**
 * The element with the caller's rights on its corpus, or null when the id is not a UUID, is
 * unknown, or lies in a corpus the caller cannot read: all three look the same from outside.
 */
export async function findElementAccess(
  db: Db,
  user: User | null,
  elementId: string,
): Promise<ElementAccess | null> {
  if (!UUID.test(elementId)) return null;
  // Anonymous callers have no memberships; an empty id matches none.
  const [row] = await elementAccessRows(db, elementId.toLowerCase(), user?.id ?? '');
  if (!row) return null;
  const limit = projectLimit(user);
  if (limit && limit !== row.corpus_id) return null;
  // Split the row back: `corpus__` names the corpus' columns, the rest are the element's.
  const element = {} as Record<string, unknown>;
  const corpus = {} as Record<string, unknown>;
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('corpus__')) corpus[key.slice('corpus__'.length)] = value;
    else if (key !== 'member_level' && key !== 'group_level') element[key] = value;
  }
  const level = user ? bestLevel(row.member_level, row.group_level) : null;
  const access = accessOf(user, corpus as unknown as Corpus, level);
  return access ? { element: element as unknown as Element, access } : null;
}

/** An element named in a path: 404 when unreadable, 403 when the right is missing. */
export async function requireElementRight(
  db: Db,
  user: User | null,
  elementId: string,
  right: Right,
): Promise<ElementAccess> {
  const found = await findElementAccess(db, user, elementId);
  if (!found) throw notFound();
  checkRight(found.access, right);
  return found;
}

/**
 * Groups (enterprise edition): a group exists only for its members and site admins (others
 * get 404, as for an unreadable project); its admins (level 100) and site admins manage it.
 * A task token acts on its process' project only, never on groups.
 */
export const GROUP_LEVEL = { member: 10, admin: 100 } as const;

export interface GroupAccess {
  group: Group;
  /** The caller's level in the group, null for site admins who are not members. */
  level: number | null;
  canManage: boolean;
}

export function groupAccessOf(
  user: User | null,
  group: Group,
  level: number | null,
): GroupAccess | null {
  if (!user || projectLimit(user)) return null;
  if (level === null && !user.is_admin) return null;
  return { group, level, canManage: !!user.is_admin || (level ?? 0) >= GROUP_LEVEL.admin };
}

export function checkGroupAdmin(access: GroupAccess): GroupAccess {
  if (!access.canManage) throw permissionDenied('You do not have admin access to this group.');
  return access;
}

/** Group admins manage members; any member may leave, which is deleting their own one. */
export function requireCanChangeGroupMember(
  user: User,
  access: GroupAccess,
  member: Pick<GroupMember, 'user_id'>,
  action: 'update' | 'delete',
): void {
  if (action === 'delete' && member.user_id === user.id) return;
  checkGroupAdmin(access);
}

/**
 * A group's place in a project is the project admins' to change; the group's own admins may
 * also take their group out of it, as a member may leave a project.
 */
export function requireCanChangeCorpusGroup(
  access: CorpusAccess,
  group: GroupAccess | null,
  action: 'update' | 'delete',
): void {
  if (action === 'delete' && group?.canManage) return;
  checkRight(access, 'admin');
}
