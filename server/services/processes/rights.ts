/**
 * The process a call names, with the caller's rights on it: unknown or unreadable processes
 * answer 404, a missing right 403 (spec 000 §7). Rights follow the process' project
 * (workers/processAccess.ts), so a task token reaches only its own project's processes.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { ProcessTable, User } from '../../db/schema';
import { notFound, permissionDenied } from '../../errors';
import type { Right } from '../../permissions';
import { requireUuid } from '../../permissions';
import { processRights } from '../workers/processAccess';

export type ProcessRow = Selectable<ProcessTable>;

const DENIED: Record<Right, string> = {
  read: 'You do not have read access to this project.',
  write: 'You do not have contributor access to this project.',
  admin: 'You do not have admin access to this project.',
};

export async function requireProcess(
  db: Db,
  user: User | null,
  rawId: string,
  right: Right,
): Promise<ProcessRow> {
  const id = requireUuid(rawId);
  const process = await db
    .selectFrom('processes')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  const rights = process ? await processRights(db, user, process) : [];
  if (!process || !rights.includes('read')) throw notFound();
  if (!rights.includes(right)) throw permissionDenied(DENIED[right]);
  return process;
}

export async function hasTasks(db: Db, processId: string): Promise<boolean> {
  const task = await db
    .selectFrom('tasks')
    .select('id')
    .where('process_id', '=', processId)
    .limit(1)
    .executeTakeFirst();
  return task !== undefined;
}
