import type { Dataset } from '@/api/datasets';
import type { Corpus } from '@/api/types';

export type DatasetOverrides = Partial<Omit<Dataset, 'sets'>> & { sets?: string[] };

/**
 * An open dataset of unique elements, every set empty; `sets` are names, each given an id from
 * `uuid` (the calling suite's own sequence).
 */
export function datasetWith(
  uuid: () => string,
  corpus: Corpus,
  defaults: { sets: string[]; creator: string },
  overrides: DatasetOverrides = {},
): Dataset {
  const { sets = defaults.sets, ...rest } = overrides;
  return {
    id: uuid(),
    name: 'Handwriting',
    description: 'Lines for a recogniser',
    state: 'open',
    sets: sets.map((name) => ({ id: uuid(), name })),
    set_elements: Object.fromEntries(sets.map((name) => [name, 0])),
    unique_elements: true,
    corpus_id: corpus.id,
    creator: defaults.creator,
    task_id: null,
    created: '2024-05-01T10:00:00Z',
    updated: '2024-05-01T10:00:00Z',
    ...rest,
  };
}
