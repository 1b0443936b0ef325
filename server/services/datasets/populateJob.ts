/**
 * The job behind PopulateDataset. It counts the candidates (elements of the wanted types in the
 * project or under the parent, minus those already in a unique dataset), draws the sample
 * positions from the seed, then reads the candidates' ids by id, page after page, and inserts
 * the drawn ones in batches, each batch in a transaction. Memory holds the drawn positions and
 * one page of ids, never the candidate list. Importing this module registers the job kind.
 */
import type { Db, Dialect } from '../../db';
import { nowIso } from '../../clock';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import { defineJob, type JobContext } from '../../jobs/queue';
import { scopedElements, type ListScope } from '../elements/lists';
import { planSplit } from './draw';
import { POPULATE_JOB, type PopulateJobPayload, type PopulateResult } from './populate';

/**
 * Ids read per query. Each page sorts the candidates anew (no index orders a type by id), so a
 * page is large: 20,000 ids is a few MB, and five pages for 100,000 candidates.
 */
const READ_PAGE = 20_000;
/** Elements inserted per transaction. */
const INSERT_BATCH = 1000;

export const POPULATE_JOB_MESSAGES = {
  gone: 'The dataset was deleted, or is no longer built by this job.',
} as const;

function candidates(db: Db, payload: PopulateJobPayload, unique: boolean) {
  const scope: ListScope = payload.parentId
    ? { kind: 'children', parentId: payload.parentId, recursive: payload.recursive }
    : { kind: 'corpus', corpusId: payload.corpusId };
  let query = scopedElements(db, scope)
    .where('elements.corpus_id', '=', payload.corpusId)
    .where('elements.type_id', 'in', payload.typeIds);
  if (unique) {
    query = query.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('dataset_elements')
            .innerJoin('dataset_sets', 'dataset_sets.id', 'dataset_elements.set_id')
            .select('dataset_elements.element_id')
            .whereRef('dataset_elements.element_id', '=', 'elements.id')
            .where('dataset_sets.dataset_id', '=', payload.datasetId),
        ),
      ),
    );
  }
  return query;
}

/**
 * The dataset if this job still builds it. Before each batch, inside its transaction, it is
 * held (PostgreSQL row lock; SQLite writes one transaction at a time), so a change of
 * unique_elements waits for the batch or the batch sees it.
 */
async function ownDataset(db: Db, dialect: Dialect, datasetId: string, jobId: string) {
  let query = db
    .selectFrom('datasets')
    .select(['id', 'unique_elements'])
    .where('id', '=', datasetId)
    .where('state', '=', 'building')
    .where('populate_job_id', '=', jobId);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new Error(POPULATE_JOB_MESSAGES.gone);
  return row;
}

/** The batch without the elements already in a set of the dataset. */
async function withoutMembers(db: Db, datasetId: string, batch: Drawn[]): Promise<Drawn[]> {
  const members = new Set<string>();
  for (const part of chunks(
    batch.map((row) => row.elementId),
    INSERT_CHUNK,
  )) {
    const rows = await db
      .selectFrom('dataset_elements')
      .innerJoin('dataset_sets', 'dataset_sets.id', 'dataset_elements.set_id')
      .select('dataset_elements.element_id')
      .where('dataset_sets.dataset_id', '=', datasetId)
      .where('dataset_elements.element_id', 'in', part)
      .execute();
    for (const row of rows) members.add(row.element_id);
  }
  return batch.filter((row) => !members.has(row.elementId));
}

async function setDatasetState(
  db: Db,
  datasetId: string,
  jobId: string,
  state: 'complete' | 'error',
): Promise<void> {
  await db
    .updateTable('datasets')
    .set({ state, updated: nowIso() })
    .where('id', '=', datasetId)
    .where('state', '=', 'building')
    .where('populate_job_id', '=', jobId)
    .execute();
}

/**
 * SQLite answers synchronously, so a job that only awaits queries never lets the server answer
 * a request: each page and batch gives way once.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Drawn {
  setIndex: number;
  elementId: string;
}

async function populate(
  { app, job, payload, progress, shouldStop }: JobContext<PopulateJobPayload>,
  counts: number[],
): Promise<{ stopped: boolean }> {
  const { db } = app;
  const dataset = await ownDataset(db, app.dialect, payload.datasetId, job.id);
  const startedUnique = dataset.unique_elements === 1;
  const source = candidates(db, payload, startedUnique);
  const total = Number(
    (await source.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
  );
  const { entries, setCount } = planSplit(total, payload.count, payload.seed, payload.sets);
  await progress(0.02);

  const created = nowIso();
  const insert = async (batch: Drawn[]) => {
    await db.transaction().execute(async (trx) => {
      const current = await ownDataset(trx, app.dialect, payload.datasetId, job.id);
      // The candidates of a unique dataset leave its elements out; one made unique since the
      // job started is checked batch by batch.
      const rows =
        current.unique_elements === 1 && !startedUnique
          ? await withoutMembers(trx, payload.datasetId, batch)
          : batch;
      for (let index = 0; index < payload.sets.length; index += 1) {
        const ids = rows.filter((row) => row.setIndex === index).map((row) => row.elementId);
        for (const part of chunks(ids, INSERT_CHUNK)) {
          // In a dataset that allows an element in several sets, one already in this set stays
          // as it is; a unique dataset's candidates exclude its elements already.
          const result = await trx
            .insertInto('dataset_elements')
            .values(
              part.map((id) => ({ set_id: payload.sets[index]!.id, element_id: id, created })),
            )
            .onConflict((oc) => oc.columns(['set_id', 'element_id']).doNothing())
            .executeTakeFirst();
          counts[index]! += Number(result.numInsertedOrUpdatedRows ?? 0);
        }
      }
    });
  };

  let next = 0;
  let position = 0;
  let last: string | null = null;
  let pending: Drawn[] = [];
  let done = 0;
  const flush = async (batch: Drawn[]) => {
    await insert(batch);
    done += batch.length;
    await progress(0.02 + (0.98 * done) / Math.max(1, entries.length));
    await yieldToEventLoop();
  };
  while (next < entries.length) {
    let page = source.select('elements.id').orderBy('elements.id').limit(READ_PAGE);
    if (last !== null) page = page.where('elements.id', '>', last);
    const rows = await page.execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const entry = entries[next];
      if (entry !== undefined && Math.floor(entry / setCount) === position) {
        pending.push({ setIndex: entry % setCount, elementId: row.id });
        next += 1;
      }
      position += 1;
    }
    last = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
    if (await shouldStop()) return { stopped: true };
    while (pending.length >= INSERT_BATCH) {
      await flush(pending.slice(0, INSERT_BATCH));
      pending = pending.slice(INSERT_BATCH);
      if (await shouldStop()) return { stopped: true };
    }
  }
  if (pending.length > 0) await flush(pending);
  return { stopped: false };
}

defineJob<PopulateJobPayload>(POPULATE_JOB, async (context) => {
  const { app, job, payload } = context;
  const counts = payload.sets.map(() => 0);
  const result = (): PopulateResult => ({
    count: counts.reduce((sum, n) => sum + n, 0),
    sets: Object.fromEntries(payload.sets.map((set, index) => [set.name, counts[index]!])),
    seed: payload.seed,
  });
  try {
    const { stopped } = await populate(context, counts);
    // Stopped by its owner or by a shutdown: the runner ends the job in error, so does the dataset.
    await setDatasetState(app.db, payload.datasetId, job.id, stopped ? 'error' : 'complete');
    return result();
  } catch (error) {
    await setDatasetState(app.db, payload.datasetId, job.id, 'error');
    throw error;
  }
});
