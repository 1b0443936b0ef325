/**
 * The dataset reads the views make (datasetStoreReads.ts through react-query): an element's
 * sets, with what was changed here over them, and the project's datasets, offline too.
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { datasetKeys, type ElementDatasetSet } from '@/api/datasets';
import {
  readCorpusDatasets,
  readDataset,
  readElementSets,
  readSetElements,
} from './datasetStoreReads';
import { localDb } from './db';
import type { ReadOptions } from './elementReads';
import { currentId } from './remap';
import { connectivity } from './runtime';
import { useLiveQuery } from './useLiveQuery';

function readOptions(): ReadOptions {
  return {
    online: connectivity.store.get().online,
    onUnreachable: () => connectivity.reportUnreachable(),
  };
}

export const storedElementSetsQuery = (elementId: string) =>
  queryOptions({
    queryKey: datasetKeys.elementSets(elementId),
    queryFn: () => readElementSets(localDb, elementId, readOptions()),
    networkMode: 'always',
  });

/**
 * The project's datasets under corpusDatasetsQuery's key and shape, kept in the store: the
 * same list, also offline once read or taken offline with a folder.
 */
export const storedCorpusDatasetsQuery = (corpusId: string) =>
  queryOptions({
    queryKey: datasetKeys.corpus(corpusId),
    queryFn: () => readCorpusDatasets(localDb, corpusId, readOptions()),
    networkMode: 'always',
  });

/** A dataset under datasetQuery's key and shape, kept in the store to be read offline. */
export const storedDatasetQuery = (datasetId: string) =>
  queryOptions({
    queryKey: datasetKeys.detail(datasetId),
    queryFn: () => readDataset(localDb, datasetId, readOptions()),
    networkMode: 'always',
  });

/**
 * A set's elements under datasetElementsQuery's key, page after page online; offline, one page
 * of the set's elements this device keeps.
 */
export const storedDatasetElementsQuery = (datasetId: string, set: string) =>
  infiniteQueryOptions({
    queryKey: datasetKeys.elements(datasetId, set),
    queryFn: ({ pageParam }) => readSetElements(localDb, datasetId, set, pageParam, readOptions()),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    networkMode: 'always',
  });

export interface ElementSets {
  /** Undefined until known. */
  sets: ElementDatasetSet[] | undefined;
  isLoading: boolean;
  error: Error | null;
}

/**
 * The element's dataset sets as this device knows them: the server's last answer with the
 * additions, removals and renames not sent yet over it, changed at once by an edit here. Once
 * an edit of the element reaches the server, it is read again for the neighbours it now has.
 */
export function useElementSets(elementId: string): ElementSets {
  const queryClient = useQueryClient();
  const query = useQuery(storedElementSetsQuery(elementId));
  const stored = useLiveQuery(
    async () => {
      const id = await currentId(localDb, elementId);
      const row = await localDb.elementSets.get(id);
      const queued = await localDb.outbox.where('refIds').equals(id).count();
      return { sets: row?.sets, queued };
    },
    [elementId],
    { sets: undefined as ElementDatasetSet[] | undefined, queued: 0 },
  );
  const queuedBefore = useRef(stored.queued);
  useEffect(() => {
    if (stored.queued < queuedBefore.current) {
      void queryClient.invalidateQueries({ queryKey: datasetKeys.elementSets(elementId) });
    }
    queuedBefore.current = stored.queued;
  }, [stored.queued, elementId, queryClient]);
  const sets = stored.sets ?? query.data;
  return {
    sets,
    isLoading: sets === undefined && query.isLoading,
    error: sets === undefined ? query.error : null,
  };
}
