/**
 * What the worker results deletion reads and sends: the worker versions that produced results
 * in a project, a worker's configurations, models and their versions to choose from, and the
 * deletion itself, a background job on the server.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type Page } from '@/api/client';

export interface ResultWorkerVersion {
  id: string;
  worker: { id: string; name: string; slug: string; type: string };
  version: number | null;
  revision_url: string | null;
  tag: string | null;
}

export interface ConfigurationChoice {
  id: string;
  name: string;
  archived: boolean;
}

export interface NamedChoice {
  id: string;
  name: string;
}

export interface VersionChoice {
  id: string;
  tag: string | null;
  state: string;
  created: string;
}

// The lists offered hold one large page: a project's producing versions and a worker's
// configurations are few; a typed UUID in the advanced mode covers the rest.
const MANY = 500;

export const workerResultsKeys = {
  all: ['worker-results'] as const,
  versions: (corpusId: string) => [...workerResultsKeys.all, 'versions', corpusId] as const,
  configurations: (workerId: string) =>
    [...workerResultsKeys.all, 'configurations', workerId] as const,
  models: (workerId: string | null) => [...workerResultsKeys.all, 'models', workerId] as const,
  modelVersions: (modelId: string) =>
    [...workerResultsKeys.all, 'model-versions', modelId] as const,
};

export function resultWorkerVersionsQuery(corpusId: string) {
  return queryOptions({
    queryKey: workerResultsKeys.versions(corpusId),
    queryFn: () =>
      api<Page<ResultWorkerVersion>>(`/corpus/${corpusId}/versions/`, {
        query: { page_size: MANY },
      }),
  });
}

export function workerConfigurationsQuery(workerId: string) {
  return queryOptions({
    queryKey: workerResultsKeys.configurations(workerId),
    queryFn: () =>
      api<Page<ConfigurationChoice>>(`/workers/${workerId}/configurations/`, {
        query: { page_size: MANY },
      }),
    placeholderData: keepPreviousData,
  });
}

export function modelChoicesQuery(workerId: string | null) {
  return queryOptions({
    queryKey: workerResultsKeys.models(workerId),
    queryFn: () =>
      api<Page<NamedChoice>>('/models/', {
        query: { page_size: MANY, compatible_worker: workerId },
      }),
  });
}

export function modelVersionChoicesQuery(modelId: string) {
  return queryOptions({
    queryKey: workerResultsKeys.modelVersions(modelId),
    queryFn: () =>
      api<Page<VersionChoice>>(`/model/${modelId}/versions/`, { query: { page_size: MANY } }),
  });
}

export async function deleteWorkerResults(
  corpusId: string,
  params: Record<string, string>,
): Promise<void> {
  await api<null>(`/corpus/${corpusId}/worker-results/`, { method: 'DELETE', query: params });
}
