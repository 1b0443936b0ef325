/**
 * Local worker runs (spec 000 §7): someone developing a worker runs it on their own machine
 * under a worker run of their personal process, of mode `local`, which belongs to no project.
 * The process is made the first time they add a run to it.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { nowIso } from '../../clock';
import { checkRunChoices, insertRun, type RunChoicesInput } from './runChoices';

export async function localProcessId(db: Db, user: User): Promise<string | null> {
  const row = await db
    .selectFrom('processes')
    .select('id')
    .where('mode', '=', 'local')
    .where('creator_id', '=', user.id)
    .orderBy('created')
    .executeTakeFirst();
  return row?.id ?? null;
}

async function ensureLocalProcess(db: Db, user: User): Promise<string> {
  const existing = await localProcessId(db, user);
  if (existing) return existing;
  const id = randomUUID();
  await db
    .insertInto('processes')
    .values({
      id,
      corpus_id: null,
      name: `Local process of ${user.display_name}`,
      mode: 'local',
      state: 'unscheduled',
      creator_id: user.id,
      created: nowIso(),
      started: null,
      finished: null,
    })
    .execute();
  return id;
}

export function localRunsQuery(db: Db, processId: string) {
  return db.selectFrom('worker_runs').select('id').where('process_id', '=', processId);
}

export type NewLocalRun = RunChoicesInput;

/** The worker run's id once its version, model version and configuration are checked. */
export async function createLocalRun(db: Db, user: User, input: NewLocalRun): Promise<string> {
  const choices = await checkRunChoices(db, user, input);
  const processId = await ensureLocalProcess(db, user);
  return insertRun(db, processId, choices);
}
