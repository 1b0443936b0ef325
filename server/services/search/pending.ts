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
import { INDEX_BATCH, lockIndex, rewriteDocuments, type SearchHandle } from './indexer';

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

/** Indexes one batch of pending elements; returns how many elements it took (0: none left). */
async function flushBatch(handle: SearchHandle, size: number): Promise<number> {
  return handle.db.transaction().execute(async (trx) => {
    await lockIndex(trx, handle.dialect);
    const { rows } = await sql<{ element_id: string }>`
      delete from search_pending where element_id in (
        select element_id from search_pending order by id limit ${size})
      returning element_id`.execute(trx);
    const elementIds = [...new Set(rows.map((row) => row.element_id))];
    if (elementIds.length > 0) await rewriteDocuments(trx, handle.dialect, elementIds);
    return elementIds.length;
  });
}

export interface FlushResult {
  /** Elements whose documents were rewritten. */
  indexed: number;
  /** Pending rows left. */
  remaining: number;
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
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const batchSize = Math.max(1, options.batchSize ?? INDEX_BATCH);
  const analyze = handle.dialect === 'postgres' && limit >= ANALYZE_BACKLOG;
  if (analyze && (await pendingCount(handle)) >= ANALYZE_BACKLOG) await refreshStatistics(handle);
  let indexed = 0;
  let analyzedAt = 0;
  while (indexed < limit) {
    const taken = await flushBatch(handle, Math.min(batchSize, limit - indexed));
    if (taken === 0) break;
    indexed += taken;
    if (analyze && indexed - analyzedAt >= ANALYZE_EVERY) {
      await refreshStatistics(handle);
      analyzedAt = indexed;
    }
    if (options.shouldStop?.()) break;
    if (indexed < limit) await yieldToEventLoop();
  }
  return { indexed, remaining: await pendingCount(handle) };
}

/** Indexes pending elements, up to `limit` of them, and returns how many pending rows remain. */
export async function flushSearchIndex(
  handle: SearchHandle,
  options: FlushOptions = {},
): Promise<number> {
  return (await flushPending(handle, options)).remaining;
}
