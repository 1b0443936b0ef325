/**
 * Populating a dataset (PopulateDataset): the request is checked here and handed to a job
 * (populateJob.ts) that draws the elements. While the job runs the dataset is 'building', so
 * neither a second populate nor a manual change can touch it; the job moves it to 'complete', or
 * to 'error' when it fails, is stopped, or its server dies (settleInterruptedPopulates).
 */
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Db, Dialect } from '../../db';
import type { Dataset, Job, User } from '../../db/schema';
import { nowIso } from '../../clock';
import { badRequest, invalidPk, validationErrors, type ErrorItem } from '../../errors';
import { enqueueJob } from '../../jobs/queue';
import { jobDetailJson, type JobDetailJson } from '../../jobs/service';
import { uuidSchema } from '../../validation';
import { DATASET_MESSAGES, datasetJson, lockDataset, setsOf, type DatasetJson } from './datasets';
import { DATASET_ELEMENT_MESSAGES } from './elements';
import type { SetShare } from './draw';

export const POPULATE_JOB = 'dataset.populate';

export const POPULATE_MESSAGES = {
  ratioSum: 'The sum of all ratios must be 100%',
  ratioRange: (name: string) => `The ratio of the set "${name}" must be a number from 0 to 1.`,
  building: 'This dataset is already being built.',
  emptyTypes: 'This list may not be empty.',
  unknownType: (slug: string) => `Object with slug=${slug} does not exist.`,
  description: (name: string) => `Populating dataset ${name}`,
} as const;

/** The fractions may miss 1 by this much: 3 × 0.333333 is a fine split in three. */
const RATIO_TOLERANCE = 1e-6;

export const populateBody = z.object({
  recursive: z.boolean().default(false),
  types: z.array(z.string()),
  count: z.number().int().min(1),
  sets: z.looseObject({}),
  parent_id: uuidSchema.nullable().optional(),
  seed: z.number().int().optional(),
});

export type PopulateBody = z.output<typeof populateBody>;

/** What the job needs, resolved once by the request: ids rather than names. */
export interface PopulateJobPayload {
  datasetId: string;
  corpusId: string;
  typeIds: string[];
  parentId: string | null;
  recursive: boolean;
  count: number;
  seed: number;
  /** The sets drawn into, by name, with their fractions. */
  sets: (SetShare & { id: string })[];
}

export interface PopulateResult {
  count: number;
  sets: Record<string, number>;
  seed: number;
}

export interface PopulateStarted {
  dataset: DatasetJson;
  job: JobDetailJson;
}

/** The body checked against the dataset and its project; every bad field answered at once. */
async function resolvePayload(
  db: Db,
  dataset: Dataset,
  body: PopulateBody,
): Promise<Omit<PopulateJobPayload, 'seed'>> {
  const errors: ErrorItem[] = [];
  const slugs = [...new Set(body.types)];
  const types =
    slugs.length === 0
      ? []
      : await db
          .selectFrom('element_types')
          .select(['id', 'slug'])
          .where('corpus_id', '=', dataset.corpus_id)
          .where('slug', 'in', slugs)
          .execute();
  if (slugs.length === 0) {
    errors.push({ code: 'empty', detail: POPULATE_MESSAGES.emptyTypes, attr: 'types' });
  }
  for (const slug of slugs) {
    if (!types.some((type) => type.slug === slug)) {
      errors.push({
        code: 'does_not_exist',
        detail: POPULATE_MESSAGES.unknownType(slug),
        attr: 'types',
      });
    }
  }

  const own = await setsOf(db, [dataset.id]);
  const shares: PopulateJobPayload['sets'] = [];
  let sum = 0;
  for (const [name, value] of Object.entries(body.sets)) {
    const set = own.find((candidate) => candidate.name === name);
    if (!set) {
      errors.push({ code: 'invalid', detail: DATASET_ELEMENT_MESSAGES.noSet(name), attr: 'sets' });
    } else if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      errors.push({ code: 'invalid', detail: POPULATE_MESSAGES.ratioRange(name), attr: 'sets' });
    } else {
      shares.push({ id: set.id, name, fraction: value });
      sum += value;
    }
  }
  if (!errors.some((error) => error.attr === 'sets') && Math.abs(sum - 1) > RATIO_TOLERANCE) {
    errors.push({ code: 'invalid', detail: POPULATE_MESSAGES.ratioSum, attr: 'sets' });
  }

  const parentId = body.parent_id?.toLowerCase() ?? null;
  if (parentId !== null) {
    const parent = await db
      .selectFrom('elements')
      .select('id')
      .where('id', '=', parentId)
      .where('corpus_id', '=', dataset.corpus_id)
      .executeTakeFirst();
    if (!parent) errors.push(invalidPk('parent_id', body.parent_id!).errors[0]!);
  }
  if (errors.length > 0) throw validationErrors(errors);

  shares.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    datasetId: dataset.id,
    corpusId: dataset.corpus_id,
    typeIds: types.map((type) => type.id),
    parentId,
    recursive: body.recursive,
    count: body.count,
    sets: shares,
  };
}

function refuseUnlessOpen(dataset: Dataset): void {
  if (dataset.state === 'building') throw badRequest(POPULATE_MESSAGES.building);
  if (dataset.state !== 'open') throw badRequest(DATASET_MESSAGES.notOpen);
}

/**
 * Checks the request, then in one transaction holding the dataset: checks it is still open,
 * marks it building with its seed and queues the job. Of two populates at once, the second
 * finds it building.
 */
export async function startPopulate(
  db: Db,
  dialect: Dialect,
  user: User,
  dataset: Dataset,
  body: PopulateBody,
): Promise<PopulateStarted> {
  refuseUnlessOpen(dataset);
  const resolved = await resolvePayload(db, dataset, body);
  const payload: PopulateJobPayload = { ...resolved, seed: body.seed ?? randomInt(0, 2 ** 31) };
  const { job, updated } = await db.transaction().execute(async (trx) => {
    const current = await lockDataset(trx, dialect, dataset.id);
    refuseUnlessOpen(current);
    const queued: Job = await enqueueJob(trx, {
      kind: POPULATE_JOB,
      description: POPULATE_MESSAGES.description(current.name),
      userId: user.id,
      corpusId: current.corpus_id,
      payload,
    });
    const changes = {
      state: 'building' as const,
      seed: payload.seed,
      populate_job_id: queued.id,
      updated: nowIso(),
    };
    await trx.updateTable('datasets').set(changes).where('id', '=', current.id).execute();
    return { job: queued, updated: { ...current, ...changes } };
  });
  return { dataset: await datasetJson(db, updated), job: jobDetailJson(job) };
}

/**
 * Datasets left 'building' by a populate job that can no longer end them: the job was deleted
 * while queued, or ended without its handler (its server died and the queue gave it up). They
 * go to 'error', so an admin can reopen them. A dataset built since (changed after the job
 * ended) is left alone. Returns the ids settled.
 */
export async function settleInterruptedPopulates(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('datasets')
    .leftJoin('jobs', 'jobs.id', 'datasets.populate_job_id')
    .select([
      'datasets.id',
      'datasets.updated',
      'datasets.populate_job_id',
      'jobs.id as job_id',
      'jobs.status',
      'jobs.ended_at',
    ])
    .where('datasets.state', '=', 'building')
    .where('datasets.populate_job_id', 'is not', null)
    .execute();
  const settled: string[] = [];
  for (const row of rows) {
    const ended =
      row.job_id === null ||
      ((row.status === 'processed' || row.status === 'error') &&
        row.ended_at !== null &&
        row.ended_at >= row.updated);
    if (!ended) continue;
    const result = await db
      .updateTable('datasets')
      .set({ state: 'error', updated: nowIso() })
      .where('id', '=', row.id)
      .where('state', '=', 'building')
      .where('populate_job_id', '=', row.populate_job_id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) settled.push(row.id);
  }
  return settled;
}
