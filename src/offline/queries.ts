/**
 * Query options for elements read through the local store (elementReads.ts), under the same
 * keys as the network ones so every invalidation reaches them. They run offline too
 * (networkMode 'always'): the store answers then.
 */
import { queryOptions } from '@tanstack/react-query';
import { elementKeys, type ListQuery } from '@/api/elements';
import { readElement, readList, readListIfModified, type ReadOptions } from './elementReads';
import { connectivity } from './runtime';
import { localDb } from './db';
import { readAllZones, ZONES_QUERY } from './zoneReads';
import {
  readAllowedMetadata,
  readClasses,
  readLineTranscriptions,
  readMetadata,
  readTranscriptions,
} from './entityReads';

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

/** One page of a children list through the store, for the children tree's own pager. */
export const readChildrenPage = (
  id: string,
  query: Record<string, string | number | boolean>,
  since: string | null,
) => readListIfModified(localDb, 'children', id, query, since, readOptions());

/** Keys of the entity reads, so an edit refreshes exactly what shows it. */
export const entityKeys = {
  transcriptions: (elementId: string) => ['transcriptions', elementId] as const,
  metadata: (elementId: string) => ['metadata', elementId] as const,
  classes: (corpusId: string) => ['classes', corpusId] as const,
  allowedMetadata: (corpusId: string) => ['allowed-metadata', corpusId] as const,
};

export const storedTranscriptionsQuery = (elementId: string) =>
  queryOptions({
    queryKey: entityKeys.transcriptions(elementId),
    queryFn: () => readTranscriptions(localDb, elementId, readOptions()),
    networkMode: 'always',
  });

export const storedMetadataQuery = (elementId: string) =>
  queryOptions({
    queryKey: entityKeys.metadata(elementId),
    queryFn: () => readMetadata(localDb, elementId, readOptions()),
    networkMode: 'always',
  });

export const storedClassesQuery = (corpusId: string) =>
  queryOptions({
    queryKey: entityKeys.classes(corpusId),
    queryFn: () => readClasses(localDb, corpusId, readOptions()),
    networkMode: 'always',
  });

export const storedAllowedMetadataQuery = (corpusId: string) =>
  queryOptions({
    queryKey: entityKeys.allowedMetadata(corpusId),
    queryFn: () => readAllowedMetadata(localDb, corpusId, readOptions()),
    networkMode: 'always',
  });

export const storedLineTranscriptionsQuery = (pageId: string, lineIds: readonly string[]) =>
  queryOptions({
    queryKey: [...entityKeys.transcriptions(pageId), 'lines', lineIds.join(',')] as const,
    queryFn: () => readLineTranscriptions(localDb, pageId, lineIds, readOptions()),
    networkMode: 'always',
  });
