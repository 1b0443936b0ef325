/**
 * Every rights decision of the API lives here. Corpus memberships carry a level:
 * guest 10 (read), contributor 50 (read, write), admin 100 (read, write, admin).
 * Site admins hold every right; a public corpus is readable by anyone, anonymous included.
 * A corpus the caller cannot read does not exist for them (404), as in Arkindex.
 */
import type { Db } from './db';
import type { Corpus, User } from './db/schema';
import { notFound, permissionDenied } from './errors';

export const LEVEL = { guest: 10, contributor: 50, admin: 100 } as const;
export type Right = 'read' | 'write' | 'admin';

export function rightsForLevel(level: number | null, isPublic: boolean): Right[] {
  const rights: Right[] = [];
  if ((level ?? 0) >= LEVEL.guest || isPublic) rights.push('read');
  if ((level ?? 0) >= LEVEL.contributor) rights.push('write');
  if ((level ?? 0) >= LEVEL.admin) rights.push('admin');
  return rights;
}

export function rightsFor(user: User | null, level: number | null, corpus: Pick<Corpus, 'public'>): Right[] {
  if (user?.is_admin) return ['read', 'write', 'admin'];
  return rightsForLevel(user ? level : null, corpus.public === 1);
}

export async function membershipLevel(db: Db, userId: string, corpusId: string): Promise<number | null> {
  const row = await db
    .selectFrom('memberships')
    .select('level')
    .where('user_id', '=', userId)
    .where('corpus_id', '=', corpusId)
    .executeTakeFirst();
  return row?.level ?? null;
}

export interface CorpusAccess {
  corpus: Corpus;
  rights: Right[];
}

const DENIED: Record<Right, string> = {
  read: 'You do not have read access to this project.',
  write: 'You do not have contributor access to this project.',
  admin: 'You do not have admin access to this project.',
};

/** The corpus with the caller's rights; 404 when unreadable, 403 when the right is missing. */
export async function requireCorpusRight(
  db: Db,
  user: User | null,
  corpusId: string,
  right: Right,
): Promise<CorpusAccess> {
  const corpus = await db.selectFrom('corpora').selectAll().where('id', '=', corpusId).executeTakeFirst();
  if (!corpus) throw notFound();
  const level = user ? await membershipLevel(db, user.id, corpus.id) : null;
  const rights = rightsFor(user, level, corpus);
  if (!rights.includes('read')) throw notFound();
  if (!rights.includes(right)) throw permissionDenied(DENIED[right]);
  return { corpus, rights };
}

/** Creating a project needs a verified e-mail (or site admin). */
export function canCreateCorpus(user: User | null): boolean {
  return !!user && (user.verified_email === 1 || user.is_admin === 1);
}
