/**
 * Creating and configuring a workers process before it starts (api part 2 §2.3–2.5): the
 * process made from a project, a folder or the selection, its element filters and the elements
 * they select, its worker runs, templates, farms and the start. The list and details pages
 * read processes through api/processes.ts; this module owns what the filter and configure
 * steps need.
 */
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type Page } from './client';
import { ApiError } from './errors';
import type { Model, ModelVersion } from './models';
import type { Farm, LoadChildren, Process, ProcessElement, ProcessListItem } from './processTypes';
import type { MlClassRef } from './types';
import type { WorkerConfiguration, WorkerVersion } from './workers';

/** POST /process/corpus/: a workers process of a project, unscheduled. */
export interface ProcessCreate {
  corpus: string;
  name?: string;
  element?: string;
  selection?: boolean;
  element_type?: string;
  element_name_contains?: string;
  load_children?: LoadChildren;
  ml_class_id?: string;
}

/** The filters PATCH /process/{id}/ accepts while the process has no tasks. */
export interface ProcessFilters {
  element_type?: string | null;
  element_name_contains?: string | null;
  load_children?: LoadChildren;
  ml_class_id?: string | null;
}

/** RetrieveWorkerRun as GET /process/{id}/workers/ lists it. */
export interface ProcessWorkerRun {
  id: string;
  parents: string[];
  worker_version: Pick<WorkerVersion, 'id' | 'worker' | 'version' | 'configuration' | 'state'> & {
    revision: { hash: string } | null;
    created: string;
  };
  configuration: WorkerConfiguration | null;
  model_version: {
    id: string;
    model: { id: string; name: string };
    tag: string | null;
    state: string;
  } | null;
  process: { id: string; corpus: string | null; name: string | null; mode: string };
  created: string;
  summary: string;
}

export interface WorkerRunCreate {
  worker_version_id: string;
  parents: string[];
  model_version_id?: string | null;
  configuration_id?: string | null;
}

export interface WorkerRunUpdate {
  parents?: string[];
  model_version_id?: string | null;
  configuration_id?: string | null;
}

export interface StartOptions {
  farm?: string;
  chunks?: number;
  use_gpu?: boolean;
  thumbnails?: boolean;
}

/** One cursor page of ListProcessElements; `count` only with `with_count=true`. */
export interface CursorPage<T> {
  next: string | null;
  previous: string | null;
  results: T[];
  count?: number;
}

/** Start allows 1 to 10 chunks (api part 2 §2.5). */
export const MAX_CHUNKS = 10;

export const processConfigurationKeys = {
  all: ['process-configuration'] as const,
  process: (id: string) => [...processConfigurationKeys.all, 'process', id] as const,
  elements: (id: string, filters?: ProcessFilters) =>
    [...processConfigurationKeys.all, 'elements', id, ...(filters ? [filters] : [])] as const,
  workerRuns: (id: string) => [...processConfigurationKeys.all, 'worker-runs', id] as const,
  recommended: (workerId: string) =>
    [...processConfigurationKeys.all, 'recommended', workerId] as const,
  availableVersions: (workerId: string) =>
    [...processConfigurationKeys.all, 'available-versions', workerId] as const,
  configurations: (workerId: string) =>
    [...processConfigurationKeys.all, 'configurations', workerId] as const,
  compatibleModels: (workerId: string) =>
    [...processConfigurationKeys.all, 'compatible-models', workerId] as const,
  modelVersions: (modelId: string) =>
    [...processConfigurationKeys.all, 'model-versions', modelId] as const,
  templates: (corpusId: string) =>
    [...processConfigurationKeys.all, 'templates', corpusId] as const,
  farms: () => [...processConfigurationKeys.all, 'farms'] as const,
  classes: (corpusId: string) => [...processConfigurationKeys.all, 'classes', corpusId] as const,
  selectionCount: (corpusId: string) =>
    [...processConfigurationKeys.all, 'selection-count', corpusId] as const,
};

// Lists a person picks from here are short (a worker's configurations, a model's versions,
// the farms): one large page holds them.
const PICK_PAGE_SIZE = 500;

export function createProcess(input: ProcessCreate): Promise<Process> {
  return api<Process>('/process/corpus/', { method: 'POST', body: input });
}

export function fetchProcess(id: string): Promise<Process> {
  return api<Process>(`/process/${id}/`);
}

export function updateProcessFilters(id: string, filters: ProcessFilters): Promise<Process> {
  return api<Process>(`/process/${id}/`, { method: 'PATCH', body: filters });
}

/** The cursor a `next` address carries. */
export function cursorOf(next: string | null): string | null {
  if (!next) return null;
  return new URL(next, 'http://localhost').searchParams.get('cursor');
}

export function fetchProcessElements(
  id: string,
  cursor: string | null,
): Promise<CursorPage<ProcessElement>> {
  return api<CursorPage<ProcessElement>>(`/process/${id}/elements/`, {
    query: { with_count: true, with_image: true, cursor },
  });
}

export function fetchProcessWorkerRuns(id: string): Promise<Page<ProcessWorkerRun>> {
  return api<Page<ProcessWorkerRun>>(`/process/${id}/workers/`, {
    query: { page_size: PICK_PAGE_SIZE },
  });
}

export function createProcessWorkerRun(
  processId: string,
  input: WorkerRunCreate,
): Promise<ProcessWorkerRun> {
  return api<ProcessWorkerRun>(`/process/${processId}/workers/`, { method: 'POST', body: input });
}

export function updateProcessWorkerRun(
  id: string,
  patch: WorkerRunUpdate,
): Promise<ProcessWorkerRun> {
  return api<ProcessWorkerRun>(`/process/workers/${id}/`, { method: 'PATCH', body: patch });
}

export async function deleteProcessWorkerRun(id: string): Promise<void> {
  await api<null>(`/process/workers/${id}/`, { method: 'DELETE' });
}

/** The version a worker recommends, or null when it has none (the API answers 404). */
export async function fetchRecommendedVersion(workerId: string): Promise<WorkerVersion | null> {
  try {
    return await api<WorkerVersion>(`/workers/${workerId}/versions/recommended/`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The worker's versions a run may use: only available ones start. */
export async function fetchAvailableVersions(workerId: string): Promise<WorkerVersion[]> {
  const page = await api<Page<WorkerVersion>>(`/workers/${workerId}/versions/`, {
    query: { page_size: PICK_PAGE_SIZE },
  });
  return page.results.filter((version) => version.state === 'available');
}

/** The enabled configurations of a worker: an archived one cannot be chosen in a process. */
export async function fetchEnabledConfigurations(workerId: string): Promise<WorkerConfiguration[]> {
  const page = await api<Page<WorkerConfiguration>>(`/workers/${workerId}/configurations/`, {
    query: { archived: false, page_size: PICK_PAGE_SIZE },
  });
  return page.results.filter((configuration) => !configuration.archived);
}

export async function fetchCompatibleModels(workerId: string): Promise<Model[]> {
  const page = await api<Page<Model>>('/models/', {
    query: { compatible_worker: workerId, archived: false, page_size: PICK_PAGE_SIZE },
  });
  return page.results;
}

/** A model's versions a run may use: only available ones start. */
export async function fetchAvailableModelVersions(modelId: string): Promise<ModelVersion[]> {
  const page = await api<Page<ModelVersion>>(`/model/${modelId}/versions/`, {
    query: { page_size: PICK_PAGE_SIZE },
  });
  return page.results.filter((version) => version.state === 'available');
}

export async function fetchTemplates(corpusId: string): Promise<ProcessListItem[]> {
  const page = await api<Page<ProcessListItem>>('/process/', {
    query: { corpus: corpusId, mode: 'template', page_size: PICK_PAGE_SIZE },
  });
  return page.results;
}

export function createTemplate(processId: string): Promise<Process> {
  return api<Process>(`/process/${processId}/template/`, { method: 'POST' });
}

export function applyTemplate(templateId: string, processId: string): Promise<Process> {
  return api<Process>(`/process/${templateId}/apply/`, {
    method: 'POST',
    body: { process_id: processId },
  });
}

/** The project's classes, to filter on one; a project holds tens or hundreds of them. */
export async function fetchClassChoices(corpusId: string): Promise<MlClassRef[]> {
  const page = await api<Page<MlClassRef>>(`/corpus/${corpusId}/classes/`, {
    query: { page_size: PICK_PAGE_SIZE },
  });
  return page.results.map(({ id, name }) => ({ id, name }));
}

/** How many of the caller's selected elements belong to the project (one row is enough). */
export async function fetchSelectionCount(corpusId: string): Promise<number> {
  const page = await api<Page<unknown>>('/elements/selection/', {
    query: { corpus: corpusId, page_size: 1, with_zone: false },
  });
  return page.count;
}

export async function fetchFarms(): Promise<Farm[]> {
  return (await api<Page<Farm>>('/farms/', { query: { page_size: PICK_PAGE_SIZE } })).results;
}

export function startProcess(id: string, options: StartOptions): Promise<Process> {
  return api<Process>(`/process/${id}/start/`, { method: 'POST', body: options });
}

export function processToConfigureQuery(id: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.process(id),
    queryFn: () => fetchProcess(id),
  });
}

/** The filters a process holds, which the elements it selects depend on. */
export function filtersOf(process: Process): Required<ProcessFilters> {
  return {
    element_type: process.element_type,
    element_name_contains: process.element_name_contains,
    load_children: process.load_children,
    ml_class_id: process.ml_class_id,
  };
}

/**
 * The elements a process selects; keyed by its filters, so a change starts a new list from its
 * first page (old cursors mean nothing under new filters).
 */
export function processElementsQuery(id: string, filters: ProcessFilters) {
  return infiniteQueryOptions({
    queryKey: processConfigurationKeys.elements(id, filters),
    queryFn: ({ pageParam }) => fetchProcessElements(id, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last: CursorPage<ProcessElement>) => cursorOf(last.next) ?? undefined,
    // A changed filter keeps the previous elements on screen until the new ones are in.
    placeholderData: keepPreviousData,
  });
}

export function processWorkerRunsQuery(id: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.workerRuns(id),
    queryFn: () => fetchProcessWorkerRuns(id),
  });
}

export function recommendedVersionQuery(workerId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.recommended(workerId),
    queryFn: () => fetchRecommendedVersion(workerId),
  });
}

export function availableVersionsQuery(workerId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.availableVersions(workerId),
    queryFn: () => fetchAvailableVersions(workerId),
  });
}

export function enabledConfigurationsQuery(workerId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.configurations(workerId),
    queryFn: () => fetchEnabledConfigurations(workerId),
  });
}

export function compatibleModelsQuery(workerId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.compatibleModels(workerId),
    queryFn: () => fetchCompatibleModels(workerId),
  });
}

export function availableModelVersionsQuery(modelId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.modelVersions(modelId),
    queryFn: () => fetchAvailableModelVersions(modelId),
  });
}

export function templatesQuery(corpusId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.templates(corpusId),
    queryFn: () => fetchTemplates(corpusId),
  });
}

export function classChoicesQuery(corpusId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.classes(corpusId),
    queryFn: () => fetchClassChoices(corpusId),
    staleTime: 5 * 60 * 1000,
  });
}

export function selectionCountQuery(corpusId: string) {
  return queryOptions({
    queryKey: processConfigurationKeys.selectionCount(corpusId),
    queryFn: () => fetchSelectionCount(corpusId),
  });
}

export const farmsQuery = queryOptions({
  queryKey: processConfigurationKeys.farms(),
  queryFn: fetchFarms,
  staleTime: 5 * 60 * 1000,
});
