/**
 * Secrets handed out once and kept only as SHA-256 hashes: task tokens (given to an agent at
 * claim time, valid while the task runs) and agent tokens (given at registration).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import type { TaskRow } from './json';

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('hex');
  return { token, hash: hashToken(token) };
}

/** States in which a task token still opens the API: the program may still be running. */
export const TOKEN_STATES = ['running', 'stopping'] as const;

/** The task a `Ponos` token belongs to, while that task runs; null otherwise. */
export async function taskForToken(db: Db, token: string): Promise<TaskRow | null> {
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('state', 'in', TOKEN_STATES)
    .executeTakeFirst();
  return task ?? null;
}
