/**
 * The elements waiting for their documents to be rewritten: triggers add them to search_pending
 * on every write to the tables the documents are read from (migration 0019). flushSearchIndex
 * takes them in id order, a batch per transaction: the batch's pending rows are deleted first
 * (every row of those elements committed so far), then their source rows are read and their
 * documents written. A write committed after that delete adds a new row, so nothing is missed.
 *
 * On PostgreSQL the batch's transaction holds the index lock before it takes its rows: of two
 * server processes flushing at once, the second waits and then finds those rows gone, so every
 * pending row is indexed exactly once, and a search answered after a flush sees its writes.
 */
import { sql } from 'kysely';
import {
  INDEX_BATCH,
  lockIndex,
  removeElementDocuments,
  rewriteDocuments,
  type SearchHandle,
} from './indexer';

export interface FlushOptions {
  /** Most elements to index in this call (default: until none is pending). */
  limit?: number;
  /** Elements per transaction. */
  batchSize?: number;
  /** Asked between batches: true ends the flush early (a server shutting down). */
  shouldStop?: () => boolean;
}

/**
 * SQLite answers synchronously: a long flush gives way between batches so the server keeps
 * answering requests.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many elements are waiting to be indexed. */
export async function pendingCount(handle: SearchHandle): Promise<number> {
  const row = await handle.db
    .selectFrom('search_pending')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Indexes one batch of pending elements; returns the elements it took (none: none left). */
async function flushBatch(handle: SearchHandle, size: number): Promise<string[]> {
  return handle.db.transaction().execute(async (trx) => {
    await lockIndex(trx, handle.dialect);
    const { rows } = await sql<{ element_id: string }>`
      delete from search_pending where element_id in (
        select element_id from search_pending order by id limit ${size})
      returning element_id`.execute(trx);
    const elementIds = [...new Set(rows.map((row) => row.element_id))];
    if (elementIds.length > 0) await rewriteDocuments(trx, handle.dialect, elementIds);
    return elementIds;
  });
}

/** Indexes one pending element in a transaction of its own. */
async function flushElement(handle: SearchHandle, elementId: string): Promise<void> {
  await handle.db.transaction().execute(async (trx) => {
    await lockIndex(trx, handle.dialect);
    await trx.deleteFrom('search_pending').where('element_id', '=', elementId).execute();
    await rewriteDocuments(trx, handle.dialect, [elementId]);
  });
}

/**
 * A batch that fails is taken again one element at a time, so that one element whose documents
 * cannot be written (a row no engine accepts) does not hold back the others forever: that
 * element loses its documents and its pending rows, and is reported. A database that cannot be
 * reached fails the first query here too, and the error goes up with every row still pending.
 */
async function flushOneByOne(
  handle: SearchHandle,
  size: number,
  skipped: SkippedElement[],
): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('search_pending')
    .select('element_id')
    .orderBy('id')
    .limit(size)
    .execute();
  const elementIds = [...new Set(rows.map((row) => row.element_id))];
  for (const elementId of elementIds) {
    try {
      await flushElement(handle, elementId);
    } catch (error) {
      await handle.db.transaction().execute(async (trx) => {
        await lockIndex(trx, handle.dialect);
        await trx.deleteFrom('search_pending').where('element_id', '=', elementId).execute();
        await removeElementDocuments(trx, handle.dialect, elementId);
      });
      skipped.push({ elementId, error });
    }
  }
  return elementIds;
}

export interface SkippedElement {
  elementId: string;
  error: unknown;
}

export interface FlushResult {
  /** Elements whose documents were rewritten. */
  indexed: number;
  /** Pending rows left. */
  remaining: number;
  /** Elements whose documents could not be written, left out of the index. */
  skipped: SkippedElement[];
}

/**
 * PostgreSQL plans the batch's lookups by element id from the tables' statistics. Tables that
 * grew by many rows since autovacuum last analysed them (the first index of an old database,
 * a large import) look small, and each batch would then read them whole: a long flush
 * refreshes their statistics at its start and every so many elements.
 */
const ANALYZE_BACKLOG = 5000;
export const ANALYZE_EVERY = 20_000;

export async function refreshStatistics(handle: SearchHandle): Promise<void> {
  if (handle.dialect !== 'postgres') return;
  await sql`analyze search_pending`.execute(handle.db);
  await sql`analyze search_documents`.execute(handle.db);
}

/** Indexes pending elements, up to `limit` of them; says how many it took and how many remain. */
export async function flushPending(
  handle: SearchHandle,
  options: FlushOptions = {},
): Promise<FlushResult> {
  // Nothing pending (most calls): one read, no write transaction.
  const any = await handle.db.selectFrom('search_pending').select('id').limit(1).executeTakeFirst();
  if (!any) return { indexed: 0, remaining: 0, skipped: [] };
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const batchSize = Math.max(1, options.batchSize ?? INDEX_BATCH);
  const analyze = handle.dialect === 'postgres' && limit >= ANALYZE_BACKLOG;
  if (analyze && (await pendingCount(handle)) >= ANALYZE_BACKLOG) await refreshStatistics(handle);
  let indexed = 0;
  let analyzedAt = 0;
  const skipped: SkippedElement[] = [];
  while (indexed < limit) {
    const size = Math.min(batchSize, limit - indexed);
    let taken: string[];
    try {
      taken = await flushBatch(handle, size);
    } catch {
      taken = await flushOneByOne(handle, size, skipped);
    }
    if (taken.length === 0) break;
    indexed += taken.length;
    if (analyze && indexed - analyzedAt >= ANALYZE_EVERY) {
      await refreshStatistics(handle);
      analyzedAt = indexed;
    }
    if (options.shouldStop?.()) break;
    if (indexed < limit) await yieldToEventLoop();
  }
  return { indexed, remaining: await pendingCount(handle), skipped };
}

/** Indexes pending elements, up to `limit` of them, and returns how many pending rows remain. */
export async function flushSearchIndex(
  handle: SearchHandle,
  options: FlushOptions = {},
): Promise<number> {
  return (await flushPending(handle, options)).remaining;
}
