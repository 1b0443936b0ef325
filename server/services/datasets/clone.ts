/**
 * CloneDataset: a new open dataset with the same description, uniqueness, sets and elements,
 * named "Clone of {name}" ("Clone of {name} (2)", … when taken). The memberships are copied by
 * one INSERT … SELECT, whatever their number.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { Dataset, User } from '../../db/schema';
import { badRequest } from '../../errors';
import { isUniqueViolation } from '../../repositories/constraints';
import { DATASET_NAME_MAX, datasetJson, newDatasetRow, setsOf, type DatasetJson } from './datasets';

export const CLONE_MESSAGES = {
  building: 'A dataset being built cannot be cloned.',
} as const;

/** The n-th name tried, cut so that it fits the name's limit with its suffix. */
export function cloneName(name: string, attempt: number): string {
  const suffix = attempt === 1 ? '' : ` (${attempt})`;
  return `Clone of ${name}`.slice(0, DATASET_NAME_MAX - suffix.length) + suffix;
}

async function freeCloneName(db: Db, dataset: Dataset, from: number): Promise<number> {
  const taken = new Set(
    (
      await db
        .selectFrom('datasets')
        .select('name')
        .where('corpus_id', '=', dataset.corpus_id)
        .where('name', 'like', 'Clone of %')
        .execute()
    ).map((row) => row.name),
  );
  let attempt = from;
  while (taken.has(cloneName(dataset.name, attempt))) attempt += 1;
  return attempt;
}

export async function cloneDataset(db: Db, user: User, dataset: Dataset): Promise<DatasetJson> {
  if (dataset.state === 'building') throw badRequest(CLONE_MESSAGES.building);
  const sets = await setsOf(db, [dataset.id]);
  // Another clone made at the same moment may take the name found free: try the next one.
  let attempt = await freeCloneName(db, dataset, 1);
  for (;;) {
    const clone = newDatasetRow({
      corpus_id: dataset.corpus_id,
      name: cloneName(dataset.name, attempt),
      description: dataset.description,
      unique_elements: dataset.unique_elements,
      creator_id: user.id,
    });
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('datasets').values(clone).execute();
        await trx
          .insertInto('dataset_sets')
          .values(sets.map((set) => ({ id: randomUUID(), dataset_id: clone.id, name: set.name })))
          .execute();
        await trx
          .insertInto('dataset_elements')
          .columns(['set_id', 'element_id', 'created'])
          .expression((eb) =>
            eb
              .selectFrom('dataset_elements')
              .innerJoin('dataset_sets as source', 'source.id', 'dataset_elements.set_id')
              .innerJoin('dataset_sets as target', (join) =>
                join
                  .onRef('target.name', '=', 'source.name')
                  .on('target.dataset_id', '=', clone.id),
              )
              .select([
                'target.id',
                'dataset_elements.element_id',
                eb.val(clone.created).as('created'),
              ])
              .where('source.dataset_id', '=', dataset.id),
          )
          .execute();
      });
      return datasetJson(db, clone);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 1000) throw error;
      attempt = await freeCloneName(db, dataset, attempt + 1);
    }
  }
}
