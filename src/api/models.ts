/**
 * Models and their versions (spec 000 §3 Model, Model version; §7 Models): the fetchers, the
 * one query-key factory and the query options the model screens share. Models are settings
 * changed online, not annotations: nothing here goes through the outbox.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, apiUrl, type Page } from './client';
import { uploadDataFile } from './dataFiles';

export type ModelRight = 'read' | 'write' | 'admin';

export interface Model {
  id: string;
  name: string;
  description: string;
  created: string;
  updated: string;
  archived: boolean;
  public: boolean;
  rights: ModelRight[];
}

export type ModelVersionState = 'created' | 'processing' | 'available' | 'error';

export interface ModelVersion {
  id: string;
  model_id: string;
  model: { id: string; name: string };
  state: ModelVersionState;
  parent: string | null;
  tag: string | null;
  description: string;
  configuration: Record<string, unknown>;
  size: number | null;
  /** SHA-256 of the archive, in hex. */
  hash: string | null;
  archive_hash: string | null;
  created: string;
  updated: string;
  /** Where the archive downloads from once available; null before. */
  s3_url: string | null;
  s3_put_url: string | null;
}

/** A worker as the workers API gives it; a model lists the ones it works with. */
export interface ModelWorker {
  id: string;
  name: string;
  slug: string;
  type: string;
  description?: string;
  repository_url?: string | null;
  archived?: boolean;
}

/** The models list's address: page, name search, archived or not, compatible worker. */
export interface ModelListQuery {
  page: number;
  name: string;
  archived: boolean;
  compatibleWorker: string | null;
}

export interface ModelCreate {
  name: string;
  description?: string;
}

export interface ModelUpdate {
  name?: string;
  description?: string;
  archived?: boolean;
  public?: boolean;
}

/** The server's page size for these lists. */
export const MODELS_PAGE_SIZE = 20;

export const modelKeys = {
  all: ['models'] as const,
  lists: () => [...modelKeys.all, 'list'] as const,
  list: (query: ModelListQuery) => [...modelKeys.lists(), query] as const,
  detail: (id: string) => [...modelKeys.all, 'detail', id] as const,
  versions: (id: string, page: number) => [...modelKeys.all, 'versions', id, page] as const,
  version: (id: string) => [...modelKeys.all, 'version', id] as const,
  compatibleWorkers: (id: string) => [...modelKeys.all, 'compatible-workers', id] as const,
  workerChoices: (name: string) => [...modelKeys.all, 'worker-choices', name] as const,
};

export function fetchModels(query: ModelListQuery): Promise<Page<Model>> {
  return api<Page<Model>>('/models/', {
    query: {
      page: query.page,
      name: query.name,
      archived: query.archived,
      compatible_worker: query.compatibleWorker,
    },
  });
}

export function fetchModel(id: string): Promise<Model> {
  return api<Model>(`/model/${id}/`);
}

export function createModel(input: ModelCreate): Promise<Model> {
  return api<Model>('/models/', { method: 'POST', body: input });
}

export function updateModel(id: string, patch: ModelUpdate): Promise<Model> {
  return api<Model>(`/model/${id}/`, { method: 'PATCH', body: patch });
}

export function fetchModelVersions(modelId: string, page: number): Promise<Page<ModelVersion>> {
  return api<Page<ModelVersion>>(`/model/${modelId}/versions/`, { query: { page } });
}

export function fetchModelVersion(id: string): Promise<ModelVersion> {
  return api<ModelVersion>(`/modelversion/${id}/`);
}

/** The API's address of a version's archive; the browser downloads it with the session cookie. */
export function modelVersionDownloadUrl(id: string): string {
  return apiUrl(`/modelversion/${id}/download/`);
}

export function fetchCompatibleWorkers(modelId: string): Promise<Page<ModelWorker>> {
  // A model works with a handful of workers: one large page holds them all.
  return api<Page<ModelWorker>>(`/model/${modelId}/compatible-workers/`, {
    query: { page_size: 500 },
  });
}

export async function addCompatibleWorker(modelId: string, workerId: string): Promise<void> {
  await api(`/model/${modelId}/compatible-worker/${workerId}/`, { method: 'POST' });
}

export async function removeCompatibleWorker(modelId: string, workerId: string): Promise<void> {
  await api<null>(`/model/${modelId}/compatible-worker/${workerId}/`, { method: 'DELETE' });
}

/** Workers whose name or slug holds `name`, to pick one from (GET /workers/). */
export function fetchWorkerChoices(name: string): Promise<Page<ModelWorker>> {
  return api<Page<ModelWorker>>('/workers/', { query: { name, page_size: 50 } });
}

/** One worker (GET /workers/{id}/), to name a worker picked earlier that a search left out. */
export function workerChoiceQuery(id: string) {
  return queryOptions({
    queryKey: [...modelKeys.all, 'worker-choice', id] as const,
    queryFn: () => api<ModelWorker>(`/workers/${id}/`),
    staleTime: Infinity,
  });
}

export function modelListQuery(query: ModelListQuery) {
  return queryOptions({
    queryKey: modelKeys.list(query),
    queryFn: () => fetchModels(query),
    // Paging keeps the previous page on screen instead of flashing a loading state.
    placeholderData: keepPreviousData,
  });
}

export function modelQuery(id: string) {
  return queryOptions({ queryKey: modelKeys.detail(id), queryFn: () => fetchModel(id) });
}

export function modelVersionsQuery(modelId: string, page: number) {
  return queryOptions({
    queryKey: modelKeys.versions(modelId, page),
    queryFn: () => fetchModelVersions(modelId, page),
    placeholderData: keepPreviousData,
  });
}

export function modelVersionQuery(id: string) {
  return queryOptions({
    queryKey: modelKeys.version(id),
    queryFn: () => fetchModelVersion(id),
  });
}

export function compatibleWorkersQuery(modelId: string) {
  return queryOptions({
    queryKey: modelKeys.compatibleWorkers(modelId),
    queryFn: () => fetchCompatibleWorkers(modelId),
  });
}

export function workerChoicesQuery(name: string) {
  return queryOptions({
    queryKey: modelKeys.workerChoices(name),
    queryFn: () => fetchWorkerChoices(name),
    placeholderData: keepPreviousData,
  });
}

export function canWriteModel(model: Pick<Model, 'rights'>): boolean {
  return model.rights.includes('write') || model.rights.includes('admin');
}

export function canAdminModel(model: Pick<Model, 'rights'>): boolean {
  return model.rights.includes('admin');
}

/** A member of a model: guests read it, contributors edit it, admins manage it (as projects). */
export interface ModelMembership {
  id: string;
  level: number;
  created: string;
  user: { id: string; email: string; display_name: string };
}

export function fetchModelMembers(modelId: string): Promise<Page<ModelMembership>> {
  // A model has a few members: one large page holds them all.
  return api<Page<ModelMembership>>(`/model/${modelId}/memberships/`, {
    query: { page_size: 500 },
  });
}

export function addModelMember(
  modelId: string,
  email: string,
  level: number,
): Promise<ModelMembership> {
  return api<ModelMembership>('/memberships/', {
    method: 'POST',
    body: { model_id: modelId, user_email: email, level },
  });
}

export async function removeModelMember(membershipId: string): Promise<void> {
  await api<null>(`/membership/${membershipId}/`, { method: 'DELETE' });
}

export function modelMembersQuery(modelId: string) {
  return queryOptions({
    queryKey: [...modelKeys.detail(modelId), 'members'] as const,
    queryFn: () => fetchModelMembers(modelId),
  });
}

export interface ModelVersionCreate {
  tag?: string;
  description?: string;
}

export function createModelVersion(
  modelId: string,
  input: ModelVersionCreate,
): Promise<ModelVersion> {
  return api<ModelVersion>(`/model/${modelId}/versions/`, { method: 'POST', body: input });
}

/**
 * Sends a version's archive to its upload address; the answer is the version, available once
 * the server has it whole. Same upload as data files: credentials, CSRF header, progress.
 */
export function uploadModelArchive(
  version: Pick<ModelVersion, 's3_put_url'>,
  archive: Blob,
  onProgress?: (loaded: number, total: number) => void,
): Promise<ModelVersion> {
  if (!version.s3_put_url) throw new Error('This version takes no upload.');
  return uploadDataFile<ModelVersion>(version.s3_put_url, archive, {
    contentType: 'application/octet-stream',
    ...(onProgress ? { onProgress } : {}),
  });
}

export interface ModelVersionUpdate {
  tag?: string | null;
  description?: string;
  configuration?: Record<string, unknown>;
}

export function updateModelVersion(id: string, patch: ModelVersionUpdate): Promise<ModelVersion> {
  return api<ModelVersion>(`/modelversion/${id}/`, { method: 'PATCH', body: patch });
}

export async function deleteModelVersion(id: string): Promise<void> {
  await api<null>(`/modelversion/${id}/`, { method: 'DELETE' });
}
