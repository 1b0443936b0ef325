/**
 * Workers, their versions and configurations, and the user's local worker runs (spec 000 §3
 * Worker, Worker version, Worker configuration; §7 Workers): the fetchers, the one query-key
 * factory and the query options the worker screens share. These are settings changed online,
 * not annotations: nothing here goes through the outbox.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { UserConfiguration } from '@/lib/workerConfiguration';
import { api, apiWithStatus, type Page } from './client';

export interface Worker {
  id: string;
  name: string;
  slug: string;
  /** The worker type's slug. */
  type: string;
  description?: string;
  repository_url?: string | null;
  archived?: boolean;
}

export interface WorkerType {
  id: string;
  slug: string;
  display_name: string;
}

export type WorkerVersionState = 'created' | 'available' | 'error';
export type Usage = 'disabled' | 'supported' | 'required';

export interface WorkerVersion {
  id: string;
  worker: Pick<Worker, 'id' | 'name' | 'slug' | 'type'> & { repository_url?: string | null };
  /** A version made without a Git revision is numbered instead. */
  version: number | null;
  revision_url: string | null;
  branch: string | null;
  tag: string | null;
  state: WorkerVersionState;
  gpu_usage: Usage;
  model_usage: Usage;
  docker_image_iid: string | null;
  feature: string | null;
  created: string;
  configuration: { user_configuration?: UserConfiguration; [key: string]: unknown };
}

/** One field of a version's schema as GET /workers/versions/{id}/fields/ lists it. */
export interface WorkerVersionField {
  id: string;
  parent_id: string | null;
  key: string;
  type: string;
  title: string;
  required: boolean;
  default: unknown;
  choices: unknown[] | null;
  subtype: string | null;
  multiline: boolean;
  help_text: string | null;
  children: string[];
}

/** What POST /workers/ takes: an unknown type slug makes that type. */
export interface WorkerCreate {
  name: string;
  slug: string;
  type: string;
  description?: string;
  repository_url?: string | null;
}

/** What POST /workers/{id}/versions/ takes; no revision_url numbers the version instead. */
export interface WorkerVersionCreate {
  configuration?: { user_configuration?: UserConfiguration };
  revision_url?: string;
  tag?: string;
  branch?: string;
  state?: 'created' | 'available';
  gpu_usage?: Usage;
  model_usage?: Usage;
}

export interface WorkerConfiguration {
  id: string;
  name: string;
  configuration: Record<string, unknown>;
  archived: boolean;
}

export interface WorkerConfigurationCreate {
  name: string;
  configuration: Record<string, unknown>;
  worker_version_id?: string;
}

/** A worker run of the user's local process (GET /process/local/workers/). */
export interface LocalWorkerRun {
  id: string;
  summary?: string;
  /** As GET /process/workers/{id}/ gives it: a Git version carries its revision's hash. */
  worker_version: Pick<WorkerVersion, 'id' | 'worker' | 'version'> & {
    revision_url?: string | null;
    revision?: { hash: string } | null;
  };
  model_version: { id: string; model: { id: string; name: string }; tag: string | null } | null;
  configuration: Pick<WorkerConfiguration, 'id' | 'name'> | null;
}

/** A model as the configuration editor's model picker lists it. */
export interface ModelChoice {
  id: string;
  name: string;
}

/** The workers list's address: page, name search and type. */
export interface WorkerListQuery {
  page: number;
  name: string;
  type: string;
}

/** The server's page size for these lists. */
export const WORKERS_PAGE_SIZE = 20;

export const workerKeys = {
  all: ['workers'] as const,
  list: (query: WorkerListQuery) => [...workerKeys.all, 'list', query] as const,
  types: () => [...workerKeys.all, 'types'] as const,
  detail: (id: string) => [...workerKeys.all, 'detail', id] as const,
  versions: (workerId: string, page: number) =>
    [...workerKeys.all, 'versions', workerId, page] as const,
  latestVersions: (workerId: string) => [...workerKeys.all, 'latest-versions', workerId] as const,
  version: (id: string) => [...workerKeys.all, 'version', id] as const,
  fields: (versionId: string) => [...workerKeys.all, 'fields', versionId] as const,
  configurationLists: (workerId: string) =>
    [...workerKeys.all, 'configurations', workerId] as const,
  configurations: (workerId: string, archived: boolean, page: number) =>
    [...workerKeys.configurationLists(workerId), archived, page] as const,
  configuration: (id: string) => [...workerKeys.all, 'configuration', id] as const,
  localRuns: (page: number) => [...workerKeys.all, 'local-runs', page] as const,
  modelChoices: (name: string) => [...workerKeys.all, 'model-choices', name] as const,
};

export function fetchWorkers(query: WorkerListQuery): Promise<Page<Worker>> {
  return api<Page<Worker>>('/workers/', {
    query: { page: query.page, name: query.name, type: query.type },
  });
}

export function fetchWorker(id: string): Promise<Worker> {
  return api<Worker>(`/workers/${id}/`);
}

/**
 * Registers a worker. The server answers 200 with the worker already holding the slug instead
 * of making one, so `created` tells the two apart.
 */
export async function createWorker(
  input: WorkerCreate,
): Promise<{ created: boolean; worker: Worker }> {
  const { status, data } = await apiWithStatus<Worker>('/workers/', {
    method: 'POST',
    body: input,
  });
  return { created: status === 201, worker: data };
}

export function createWorkerVersion(
  workerId: string,
  input: WorkerVersionCreate,
): Promise<WorkerVersion> {
  return api<WorkerVersion>(`/workers/${workerId}/versions/`, { method: 'POST', body: input });
}

export function updateWorkerVersion(
  id: string,
  patch: { state?: WorkerVersionState; tag?: string | null; branch?: string | null },
): Promise<WorkerVersion> {
  return api<WorkerVersion>(`/workers/versions/${id}/`, { method: 'PATCH', body: patch });
}

export function fetchWorkerTypes(): Promise<Page<WorkerType>> {
  // A site has a handful of types: one large page holds them all.
  return api<Page<WorkerType>>('/workers/types/', { query: { page_size: 500 } });
}

export function fetchWorkerVersions(
  workerId: string,
  page: number,
  pageSize?: number,
): Promise<Page<WorkerVersion>> {
  return api<Page<WorkerVersion>>(`/workers/${workerId}/versions/`, {
    query: { page, page_size: pageSize },
  });
}

export function fetchWorkerVersion(id: string): Promise<WorkerVersion> {
  return api<WorkerVersion>(`/workers/versions/${id}/`);
}

export function fetchWorkerVersionFields(versionId: string): Promise<Page<WorkerVersionField>> {
  return api<Page<WorkerVersionField>>(`/workers/versions/${versionId}/fields/`, {
    query: { page_size: 500 },
  });
}

export function fetchWorkerConfigurations(
  workerId: string,
  archived: boolean,
  page: number,
): Promise<Page<WorkerConfiguration>> {
  return api<Page<WorkerConfiguration>>(`/workers/${workerId}/configurations/`, {
    query: { page, archived },
  });
}

export function fetchWorkerConfiguration(id: string): Promise<WorkerConfiguration> {
  return api<WorkerConfiguration>(`/workers/configurations/${id}/`);
}

export function createWorkerConfiguration(
  workerId: string,
  input: WorkerConfigurationCreate,
): Promise<WorkerConfiguration> {
  return api<WorkerConfiguration>(`/workers/${workerId}/configurations/`, {
    method: 'POST',
    body: input,
  });
}

export function updateWorkerConfiguration(
  id: string,
  patch: { name?: string; archived?: boolean },
): Promise<WorkerConfiguration> {
  return api<WorkerConfiguration>(`/workers/configurations/${id}/`, {
    method: 'PATCH',
    body: patch,
  });
}

export function fetchLocalWorkerRuns(page: number): Promise<Page<LocalWorkerRun>> {
  return api<Page<LocalWorkerRun>>('/process/local/workers/', { query: { page } });
}

/** Adds a worker run of this version to the caller's local process (made on first use). */
export function createLocalWorkerRun(input: {
  worker_version_id: string;
  configuration_id?: string;
}): Promise<LocalWorkerRun> {
  return api<LocalWorkerRun>('/process/local/workers/create/', { method: 'POST', body: input });
}

export function fetchModelChoices(name: string): Promise<Page<ModelChoice>> {
  return api<Page<ModelChoice>>('/models/', { query: { name, page_size: 50 } });
}

export function workerListQuery(query: WorkerListQuery) {
  return queryOptions({
    queryKey: workerKeys.list(query),
    queryFn: () => fetchWorkers(query),
    // Paging keeps the previous page on screen instead of flashing a loading state.
    placeholderData: keepPreviousData,
  });
}

export const workerTypesQuery = queryOptions({
  queryKey: workerKeys.types(),
  queryFn: fetchWorkerTypes,
  staleTime: 5 * 60 * 1000,
});

export function workerQuery(id: string) {
  return queryOptions({ queryKey: workerKeys.detail(id), queryFn: () => fetchWorker(id) });
}

export function workerVersionsQuery(workerId: string, page: number) {
  return queryOptions({
    queryKey: workerKeys.versions(workerId, page),
    queryFn: () => fetchWorkerVersions(workerId, page),
    placeholderData: keepPreviousData,
  });
}

/** The worker's newest versions, to find the schema its configurations follow. */
export function latestWorkerVersionsQuery(workerId: string) {
  return queryOptions({
    queryKey: workerKeys.latestVersions(workerId),
    queryFn: () => fetchWorkerVersions(workerId, 1, 50),
  });
}

export function workerVersionQuery(id: string) {
  return queryOptions({
    queryKey: workerKeys.version(id),
    queryFn: () => fetchWorkerVersion(id),
  });
}

export function workerVersionFieldsQuery(versionId: string) {
  return queryOptions({
    queryKey: workerKeys.fields(versionId),
    queryFn: () => fetchWorkerVersionFields(versionId),
  });
}

export function workerConfigurationsQuery(workerId: string, archived: boolean, page: number) {
  return queryOptions({
    queryKey: workerKeys.configurations(workerId, archived, page),
    queryFn: () => fetchWorkerConfigurations(workerId, archived, page),
    placeholderData: keepPreviousData,
  });
}

export function workerConfigurationQuery(id: string) {
  return queryOptions({
    queryKey: workerKeys.configuration(id),
    queryFn: () => fetchWorkerConfiguration(id),
  });
}

export function localWorkerRunsQuery(page: number) {
  return queryOptions({
    queryKey: workerKeys.localRuns(page),
    queryFn: () => fetchLocalWorkerRuns(page),
    placeholderData: keepPreviousData,
  });
}

export function modelChoicesQuery(name: string) {
  return queryOptions({
    queryKey: workerKeys.modelChoices(name),
    queryFn: () => fetchModelChoices(name),
    placeholderData: keepPreviousData,
  });
}

/** The schema configurations of a worker follow: its newest version that has one. */
export function schemaVersionOf(versions: WorkerVersion[]): WorkerVersion | null {
  return versions.find((version) => version.configuration?.user_configuration) ?? null;
}
