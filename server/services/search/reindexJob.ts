/**
 * The job behind CorpusIndex. It reads the project's element ids page by page (in id order) and
 * rewrites each page's documents in one transaction, then removes the documents of elements
 * deleted since they were indexed. Memory holds one page of ids. Running it again from the
 * start is harmless, so a job cut short by a restart is queued again. Importing this module
 * registers the job kind.
 */
import { sql } from 'kysely';
import { defineJob } from '../../jobs/queue';
import { INDEX_BATCH, indexElements, type SearchHandle } from './indexer';
import { ANALYZE_EVERY, refreshStatistics } from './pending';
import { REINDEX_JOB, type ReindexPayload, type ReindexResult } from './reindex';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

defineJob<ReindexPayload>(
  REINDEX_JOB,
  async ({ app, payload, progress, shouldStop }): Promise<ReindexResult> => {
    const handle: SearchHandle = { db: app.db, dialect: app.dialect };
    const { corpusId } = payload;
    const result: ReindexResult = { elements: 0, documents: 0, removed: 0 };
    const total = Number(
      (
        await app.db
          .selectFrom('elements')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('corpus_id', '=', corpusId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const nextPage = pager(handle, corpusId);
    let analyzedAt = 0;
    await refreshStatistics(handle);
    for (;;) {
      const ids = await nextPage();
      if (ids.length === 0) break;
      result.documents += await indexElements(handle, ids);
      result.elements += ids.length;
      if (result.elements - analyzedAt >= ANALYZE_EVERY) {
        await refreshStatistics(handle);
        analyzedAt = result.elements;
      }
      await progress((0.98 * result.elements) / Math.max(1, total));
      await yieldToEventLoop();
      if (await shouldStop()) return result;
    }
    // Documents whose element is gone (indexed before a deletion the follower has not seen).
    for (;;) {
      const gone = await app.db
        .selectFrom('search_documents')
        .select('element_id')
        .distinct()
        .where('corpus_id', '=', corpusId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('elements')
                .select('elements.id')
                .whereRef('elements.id', '=', 'search_documents.element_id'),
            ),
          ),
        )
        .limit(INDEX_BATCH)
        .execute();
      if (gone.length === 0) break;
      const ids = gone.map((row) => row.element_id);
      result.removed += await countDocuments(handle, ids);
      await indexElements(handle, ids);
      if (await shouldStop()) return result;
    }
    await progress(1);
    return result;
  },
  { retryOnRestart: true },
);

/**
 * The project's element ids, a page at a time. On SQLite in rowid order, walking the table
 * once: no index holds a project's elements by id, and `order by id` sorted all of them again
 * for each page (a 200,000-line project took three minutes, 20 times the follower's time).
 */
function pager(handle: SearchHandle, corpusId: string): () => Promise<string[]> {
  if (handle.dialect === 'sqlite') {
    let lastRowid = 0;
    return async () => {
      const { rows } = await sql<{ rid: number; id: string }>`select rowid as rid, id
        from elements where rowid > ${lastRowid} and corpus_id = ${corpusId}
        order by rowid limit ${INDEX_BATCH}`.execute(handle.db);
      if (rows.length > 0) lastRowid = rows[rows.length - 1]!.rid;
      return rows.map((row) => row.id);
    };
  }
  let last: string | null = null;
  return async () => {
    let page = handle.db
      .selectFrom('elements')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .orderBy('id')
      .limit(INDEX_BATCH);
    if (last !== null) page = page.where('id', '>', last);
    const ids = (await page.execute()).map((row) => row.id);
    if (ids.length > 0) last = ids[ids.length - 1]!;
    return ids;
  };
}

async function countDocuments(handle: SearchHandle, elementIds: string[]): Promise<number> {
  const row = await handle.db
    .selectFrom('search_documents')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('element_id', 'in', elementIds)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
