/**
 * Projects (corpora in the API): the fetchers, the one query-key factory and the query options
 * every feature that shows a project reuses.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { readCorpus } from '@/offline/corpusReads';
import { persisted, queryPersister } from '@/offline/queryPersister';
import { api } from './client';
import type { Corpus, Right } from './types';

export interface CorpusCreate {
  name: string;
  description?: string;
  public?: boolean;
}

export interface CorpusUpdate {
  name?: string;
  description?: string;
  public?: boolean;
  indexable?: boolean;
  top_level_type?: string | null;
}

export const corpusKeys = {
  all: ['corpora'] as const,
  list: () => [...corpusKeys.all, 'list'] as const,
  detail: (id: string) => [...corpusKeys.all, 'detail', id] as const,
};

export function fetchCorpora(): Promise<Corpus[]> {
  return api<Corpus[]>('/corpus/');
}

export function fetchCorpus(id: string): Promise<Corpus> {
  return api<Corpus>(`/corpus/${id}/`);
}

export function createCorpus(input: CorpusCreate): Promise<Corpus> {
  return api<Corpus>('/corpus/', { method: 'POST', body: input });
}

export function updateCorpus(id: string, patch: CorpusUpdate): Promise<Corpus> {
  return api<Corpus>(`/corpus/${id}/`, { method: 'PATCH', body: patch });
}

export async function deleteCorpus(id: string): Promise<void> {
  await api<null>(`/corpus/${id}/`, { method: 'DELETE' });
}

// Both are persisted: the project list and a project's types are what an offline reload needs
// first, and they stay small.
type ListKey = ReturnType<typeof corpusKeys.list>;
type DetailKey = ReturnType<typeof corpusKeys.detail>;

export const corpusListQuery = queryOptions<Corpus[], Error, Corpus[], ListKey>({
  queryKey: corpusKeys.list(),
  queryFn: fetchCorpora,
  ...persisted,
});

export function corpusQuery(id: string) {
  return queryOptions<Corpus, Error, Corpus, DetailKey>({
    queryKey: corpusKeys.detail(id),
    // Through the local store, and run offline too: a read cut by the network going away
    // answers with the project kept here rather than waiting for the network.
    queryFn: () => readCorpus(id),
    networkMode: 'always',
    ...persisted,
  });
}

/** Drops a deleted project's copies, so an offline reload does not bring it back. */
export async function forgetPersistedCorpus(id: string): Promise<void> {
  // Local storage trouble must not turn a deletion the server has done into a failure.
  await queryPersister.removeQueries({ queryKey: corpusKeys.detail(id) }).catch(() => undefined);
}

/** Keeps a project read elsewhere (an offline pack) where its pages find it, offline too. */
export async function rememberCorpus(queryClient: QueryClient, corpus: Corpus): Promise<void> {
  const queryKey = corpusKeys.detail(corpus.id);
  queryClient.setQueryData(queryKey, corpus);
  const query = queryClient.getQueryCache().find({ queryKey, exact: true });
  // Local storage trouble leaves the page to fetch the project when it opens.
  if (query) await queryPersister.persistQuery(query).catch(() => undefined);
}

export function hasRight(corpus: Pick<Corpus, 'rights'>, right: Right): boolean {
  return corpus.rights.includes(right);
}
