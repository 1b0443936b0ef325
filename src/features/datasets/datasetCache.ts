/**
 * Keeps the cached dataset (its page, the project's list) in step with a change made here, so
 * screens show it at once: a set renamed through the outbox reaches the server later, and a
 * refetch before then would bring the old name back.
 */
import type { QueryClient } from '@tanstack/react-query';
import { datasetKeys, type Dataset } from '@/api/datasets';

export function patchCachedDataset(
  queryClient: QueryClient,
  dataset: Pick<Dataset, 'id' | 'corpus_id'>,
  change: (dataset: Dataset) => Dataset,
): void {
  queryClient.setQueryData<Dataset>(datasetKeys.detail(dataset.id), (cached) =>
    cached ? change(cached) : cached,
  );
  queryClient.setQueryData<Dataset[]>(datasetKeys.corpus(dataset.corpus_id), (list) =>
    list?.map((cached) => (cached.id === dataset.id ? change(cached) : cached)),
  );
}

export function withSetRenamed(dataset: Dataset, setId: string, name: string): Dataset {
  const set = dataset.sets.find((candidate) => candidate.id === setId);
  if (!set || set.name === name) return dataset;
  const { [set.name]: count = 0, ...otherCounts } = dataset.set_elements;
  return {
    ...dataset,
    sets: dataset.sets.map((candidate) => (candidate.id === setId ? { ...set, name } : candidate)),
    set_elements: { ...otherCounts, [name]: count },
  };
}

export function withSetAdded(dataset: Dataset, set: { id: string; name: string }): Dataset {
  if (dataset.sets.some((candidate) => candidate.id === set.id)) return dataset;
  return {
    ...dataset,
    // The server lists sets by name: a new one takes its place (and its colour) among them.
    sets: [...dataset.sets, set].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    set_elements: { ...dataset.set_elements, [set.name]: 0 },
  };
}

export function withSetRemoved(dataset: Dataset, setId: string): Dataset {
  const set = dataset.sets.find((candidate) => candidate.id === setId);
  if (!set) return dataset;
  const { [set.name]: _removed, ...set_elements } = dataset.set_elements;
  return { ...dataset, sets: dataset.sets.filter((c) => c.id !== setId), set_elements };
}

/**
 * Whatever is cached of the dataset is read again from the server: the dataset, its project's
 * list, and the element tables and set lists that name it or its sets.
 */
export function refreshDataset(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: datasetKeys.all });
}
