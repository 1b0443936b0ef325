/**
 * Templates (api part 2 §2.5): a template is a process of mode `template` holding copies of
 * another process' worker runs; applying it replaces a not-yet-started process' runs with
 * copies of the template's. Copies keep version, model version and configuration, and their
 * parents point at the copies.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { badRequest, invalidPk } from '../../errors';
import { nowIso } from '../../clock';
import { processRights } from '../workers/processAccess';
import { parseRunParents } from './runGraph';
import { hasTasks, type ProcessRow } from './rights';

export const TEMPLATE_MESSAGES = {
  notTemplate: 'Only a template can be applied.',
  targetMode: 'A template can only be applied to a workers process.',
  targetStarted: 'A template cannot be applied to a process that has already been started.',
  otherProject: 'A template can only be applied to a process of the same project.',
} as const;

/** Copies every worker run of `fromId` into `toId`, parents remapped to the copies. */
export async function copyWorkerRuns(trx: Db, fromId: string, toId: string): Promise<void> {
  const runs = await trx
    .selectFrom('worker_runs')
    .selectAll()
    .where('process_id', '=', fromId)
    .orderBy('created')
    .orderBy('id')
    .execute();
  const ids = new Map<string, string>(runs.map((run) => [run.id, randomUUID()]));
  if (runs.length === 0) return;
  // One millisecond apart, so the copies list (and make tasks) in the source's order.
  const start = Date.now();
  await trx
    .insertInto('worker_runs')
    .values(
      runs.map((run, index) => ({
        id: ids.get(run.id)!,
        process_id: toId,
        worker_version_id: run.worker_version_id,
        model_version_id: run.model_version_id,
        configuration_id: run.configuration_id,
        parents: JSON.stringify(
          parseRunParents(run.parents)
            .map((parent) => ids.get(parent))
            .filter((id) => id !== undefined),
        ),
        created: new Date(start + index).toISOString(),
      })),
    )
    .execute();
}

/** A new process of mode `mode` in the source's project; returns its id. */
export async function insertProcess(
  trx: Db,
  values: {
    corpusId: string | null;
    creatorId: string;
    name: string | null;
    mode: string;
    templateId?: string | null;
  },
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await trx
    .insertInto('processes')
    .values({
      id,
      corpus_id: values.corpusId,
      name: values.name,
      mode: values.mode,
      state: 'unscheduled',
      creator_id: values.creatorId,
      created: now,
      updated: now,
      started: null,
      finished: null,
      element_id: null,
      element_type: null,
      element_name_contains: null,
      ml_class_id: null,
      template_id: values.templateId ?? null,
      farm_id: null,
    })
    .execute();
  return id;
}

export async function createTemplate(db: Db, user: User, source: ProcessRow): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const id = await insertProcess(trx, {
      corpusId: source.corpus_id,
      creatorId: user.id,
      name: `Template of ${source.name ?? source.id}`,
      mode: 'template',
    });
    await copyWorkerRuns(trx, source.id, id);
    return id;
  });
}

export async function applyTemplate(
  db: Db,
  user: User,
  template: ProcessRow,
  targetId: string,
): Promise<string> {
  if (template.mode !== 'template') throw badRequest(TEMPLATE_MESSAGES.notTemplate);
  const target = await db
    .selectFrom('processes')
    .selectAll()
    .where('id', '=', targetId.toLowerCase())
    .executeTakeFirst();
  const rights = target ? await processRights(db, user, target) : [];
  if (!target || !rights.includes('admin')) throw invalidPk('process_id', targetId);
  if (target.mode !== 'workers') {
    throw badRequest(TEMPLATE_MESSAGES.targetMode);
  }
  if (target.corpus_id !== template.corpus_id) throw badRequest(TEMPLATE_MESSAGES.otherProject);
  return db.transaction().execute(async (trx) => {
    if (await hasTasks(trx, target.id)) throw badRequest(TEMPLATE_MESSAGES.targetStarted);
    await trx.deleteFrom('worker_runs').where('process_id', '=', target.id).execute();
    await copyWorkerRuns(trx, template.id, target.id);
    await trx
      .updateTable('processes')
      .set({ template_id: template.id, updated: nowIso() })
      .where('id', '=', target.id)
      .execute();
    return target.id;
  });
}
