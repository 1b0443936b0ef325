/**
 * Workers and worker types (api/arkindex-api-2.md §3.1). A worker names its type by slug; an
 * unknown slug given when creating or updating a worker creates that type, as workers publish
 * their own types.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db';
import type { WorkerTable } from '../../db/schema';
import { notFound } from '../../errors';
import { nowIso } from '../../clock';
import { requireUuid } from '../../permissions';

export type WorkerRow = Selectable<WorkerTable>;

export interface WorkerJson {
  id: string;
  name: string;
  slug: string;
  type: string;
  description: string;
  repository_url: string | null;
  archived: boolean;
}

export function workerJson(worker: WorkerRow): WorkerJson {
  return {
    id: worker.id,
    name: worker.name,
    slug: worker.slug,
    type: worker.type,
    description: worker.description,
    repository_url: worker.repository_url,
    archived: worker.archived === 1,
  };
}

/** A worker named in a path: 404 when the id is not a UUID or names nothing. */
export async function requireWorker(db: Db, id: string): Promise<WorkerRow> {
  const worker = await db
    .selectFrom('workers')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!worker) throw notFound();
  return worker;
}

export interface WorkerFilters {
  name?: string;
  type?: string;
  archived?: boolean;
}

/** `column LIKE %text%` whatever the case, with the text's own % and _ taken literally. */
function contains(column: 'name' | 'slug', text: string) {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // SQLite has no default escape character: the clause is spelled out for both dialects.
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

export function workerListQuery(db: Db, filters: WorkerFilters) {
  let query = db.selectFrom('workers').selectAll();
  if (filters.name) {
    const name = filters.name;
    query = query.where((eb) => eb.or([contains('name', name), contains('slug', name)]));
  }
  if (filters.type) query = query.where('type', '=', filters.type);
  if (filters.archived !== undefined)
    query = query.where('archived', '=', filters.archived ? 1 : 0);
  return query;
}

/** Makes the worker type `slug` exist (named after its slug when new). */
export async function ensureWorkerType(db: Db, slug: string): Promise<void> {
  const found = await db
    .selectFrom('worker_types')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (found) return;
  await db
    .insertInto('worker_types')
    .values({ id: randomUUID(), slug, display_name: slug })
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
}

export interface NewWorker {
  name: string;
  slug: string;
  type: string;
  description?: string | undefined;
  repository_url?: string | null | undefined;
}

/**
 * CreateWorker: the new worker, or the one already published under this slug (unchanged), as
 * publishing tools call it on every release.
 */
export async function createWorker(
  db: Db,
  input: NewWorker,
): Promise<{ worker: WorkerRow; created: boolean }> {
  const existing = await db
    .selectFrom('workers')
    .selectAll()
    .where('slug', '=', input.slug)
    .executeTakeFirst();
  if (existing) return { worker: existing, created: false };
  await ensureWorkerType(db, input.type);
  const worker: WorkerRow = {
    id: randomUUID(),
    name: input.name,
    slug: input.slug,
    type: input.type,
    description: input.description ?? '',
    repository_url: input.repository_url ?? null,
    archived: 0,
    created: nowIso(),
  };
  const inserted = await db
    .insertInto('workers')
    .values(worker)
    .onConflict((oc) => oc.column('slug').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    // Published at the same moment by someone else: theirs is the worker.
    const raced = await db
      .selectFrom('workers')
      .selectAll()
      .where('slug', '=', input.slug)
      .executeTakeFirstOrThrow();
    return { worker: raced, created: false };
  }
  return { worker, created: true };
}

export interface WorkerUpdate {
  name?: string | undefined;
  type?: string | undefined;
  description?: string | undefined;
  archived?: boolean | undefined;
}

export async function updateWorker(
  db: Db,
  worker: WorkerRow,
  input: WorkerUpdate,
): Promise<WorkerRow> {
  if (input.type !== undefined) await ensureWorkerType(db, input.type);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.type !== undefined ? { type: input.type } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.archived !== undefined ? { archived: input.archived ? 1 : 0 } : {}),
  };
  if (Object.keys(changes).length === 0) return worker;
  await db.updateTable('workers').set(changes).where('id', '=', worker.id).execute();
  return { ...worker, ...changes };
}

/**
 * Holds the worker's row until the transaction ends (a no-op update: a row lock on PostgreSQL,
 * the write lock on SQLite), so checks and inserts under one worker do not interleave.
 */
export async function lockWorker(db: Db, workerId: string): Promise<void> {
  await db
    .updateTable('workers')
    .set((eb) => ({ archived: eb.ref('archived') }))
    .where('id', '=', workerId)
    .execute();
}
