/**
 * The workers a model suits (Create/DestroyModelCompatibleWorker, ListModels' compatible_worker
 * filter), so a process configuration offers the right models for a worker. Readers of the model
 * list them; its contributors change them.
 */
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import { notFound, validationError } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import { requireUuid } from '../../permissions';
import type { ModelAccess } from './rights';

export interface CompatibleWorkerJson {
  id: string;
  name: string;
  slug: string;
  type: string;
  description: string;
  repository_url: string | null;
  archived: boolean;
}

async function requireWorker(db: Db, workerId: string): Promise<string> {
  const worker = await db
    .selectFrom('workers')
    .select('id')
    .where('id', '=', requireUuid(workerId))
    .executeTakeFirst();
  if (!worker) throw notFound();
  return worker.id;
}

export async function addCompatibleWorker(
  db: Db,
  access: ModelAccess,
  workerId: string,
): Promise<{ model_id: string; worker_id: string }> {
  const id = await requireWorker(db, workerId);
  const existing = await db
    .selectFrom('model_compatible_workers')
    .select('worker_id')
    .where('model_id', '=', access.model.id)
    .where('worker_id', '=', id)
    .executeTakeFirst();
  if (existing) {
    throw validationError(
      'non_field_errors',
      'This worker is already compatible with this model.',
      'unique',
    );
  }
  await db
    .insertInto('model_compatible_workers')
    .values({ model_id: access.model.id, worker_id: id, created: nowIso() })
    .execute();
  return { model_id: access.model.id, worker_id: id };
}

/** 404 when the worker is unknown or not compatible with the model. */
export async function removeCompatibleWorker(
  db: Db,
  access: ModelAccess,
  workerId: string,
): Promise<void> {
  const result = await db
    .deleteFrom('model_compatible_workers')
    .where('model_id', '=', access.model.id)
    .where('worker_id', '=', requireUuid(workerId))
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound();
}

export function compatibleWorkerPages(
  db: Db,
  access: ModelAccess,
): PageSource<CompatibleWorkerJson> {
  const query = db
    .selectFrom('workers')
    .innerJoin('model_compatible_workers', 'model_compatible_workers.worker_id', 'workers.id')
    .where('model_compatible_workers.model_id', '=', access.model.id)
    .select([
      'workers.id',
      'workers.name',
      'workers.slug',
      'workers.type',
      'workers.description',
      'workers.repository_url',
      'workers.archived',
    ]);
  return {
    count: () => countRows(query),
    async fetch({ limit, offset }) {
      const rows = await query
        .orderBy('workers.name')
        .orderBy('workers.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((row) => ({ ...row, archived: row.archived === 1 }));
    },
  };
}
