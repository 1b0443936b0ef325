/**
 * Query options for elements read through the local store (elementReads.ts), under the same
 * keys as the network ones so every invalidation reaches them. They run offline too
 * (networkMode 'always'): the store answers then.
 */
import { queryOptions } from '@tanstack/react-query';
import { elementKeys, type ListQuery } from '@/api/elements';
import { readElement, readList, type ReadOptions } from './elementReads';
import { connectivity } from './runtime';
import { localDb } from './db';
import { readAllZones, ZONES_QUERY } from './zoneReads';

function readOptions(): ReadOptions {
  return {
    online: connectivity.store.get().online,
    onUnreachable: () => connectivity.reportUnreachable(),
  };
}

export const storedElementQuery = (id: string) =>
  queryOptions({
    queryKey: elementKeys.detail(id),
    queryFn: () => readElement(localDb, id, readOptions()),
    networkMode: 'always',
  });

export const storedChildrenQuery = (id: string, query: ListQuery) =>
  queryOptions({
    queryKey: elementKeys.children(id, query),
    queryFn: () => readList(localDb, 'children', id, query, readOptions()),
    networkMode: 'always',
  });

export const storedCorpusElementsQuery = (corpusId: string, query: ListQuery) =>
  queryOptions({
    queryKey: elementKeys.corpusList(corpusId, query),
    queryFn: () => readList(localDb, 'corpus', corpusId, query, readOptions()),
    networkMode: 'always',
  });

/** The zones drawn over an element's image: every descendant, all pages. */
export const storedZonesQuery = (id: string) =>
  queryOptions({
    queryKey: [...elementKeys.children(id, ZONES_QUERY), 'all-pages'] as const,
    queryFn: () => readAllZones(localDb, id, readOptions()),
    networkMode: 'always',
  });
