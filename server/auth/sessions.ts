import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db';
import type { User } from '../db/schema';
import { isoIn, nowIso } from '../clock';

export const SESSION_COOKIE = 'folia_session';
export const CSRF_COOKIE = 'arkindex.csrf';
export const CSRF_HEADER = 'x-csrftoken';
/**
 * Readable by the page, never a secret: '1' while this browser may hold a session, '0' once it
 * holds none. The app then spares anonymous page loads a GET /user/ bound to fail; without the
 * cookie (another Arkindex server) it asks as before.
 */
export const SESSION_HINT_COOKIE = 'folia.signed_in';
const SESSION_DAYS = 14;
export const SESSION_MAX_AGE_S = SESSION_DAYS * 24 * 3600;

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export async function createSession(db: Db, userId: string): Promise<string> {
  const value = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      id: digest(value),
      user_id: userId,
      created: nowIso(),
      expires: isoIn(SESSION_MAX_AGE_S * 1000),
    })
    .execute();
  return value;
}

export async function userForSession(db: Db, value: string): Promise<User | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', digest(value))
    .where('sessions.expires', '>', nowIso())
    .where('users.is_active', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}

export async function deleteSession(db: Db, value: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', digest(value)).execute();
}

/** After a password change every other session of the user ends. */
export async function deleteOtherSessions(
  db: Db,
  userId: string,
  keep: string | null,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) query = query.where('id', '!=', digest(keep));
  await query.execute();
}

export async function userForToken(db: Db, token: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('auth_token', '=', token)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}
