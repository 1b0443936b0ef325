/**
 * Rights on a task are the caller's rights on its process: 404 when the process is unreadable
 * (or the id names nothing), 403 when it is readable but the right is missing.
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { notFound, permissionDenied } from '../../errors';
import { requireUuid, type Right } from '../../permissions';
import { processRights } from '../workers/processAccess';
import type { TaskRow } from './json';

const DENIED: Record<Right, string> = {
  read: 'You do not have read access to this project.',
  write: 'You do not have contributor access to this project.',
  admin: 'You do not have admin access to this project.',
};

export async function requireTaskRight(
  db: Db,
  user: User | null,
  id: string,
  right: Right,
): Promise<TaskRow> {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  const process = task
    ? await db
        .selectFrom('processes')
        .select(['corpus_id', 'creator_id'])
        .where('id', '=', task.process_id)
        .executeTakeFirst()
    : undefined;
  const rights = process ? await processRights(db, user, process) : [];
  if (!task || !rights.includes('read')) throw notFound();
  if (!rights.includes(right)) throw permissionDenied(DENIED[right]);
  return task;
}
