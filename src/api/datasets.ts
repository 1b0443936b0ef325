/**
 * Datasets, their sets and their elements (spec 001 §3 Dataset, Dataset set, Element dataset-set
 * entry; §7 Datasets): the fetchers, the one query-key factory and the query options the dataset
 * screens share. Edits an annotator makes to membership and set names while reading
 * (add an element, remove it, rename a set) go through the outbox in src/offline/datasetEdits.ts;
 * the calls here are the online ones those edits replay, and the settings changed online only.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, apiUrl, type Page } from './client';
import type { JobDetail } from './jobs';
import type { ElementListItem } from './types';

export type DatasetState = 'open' | 'building' | 'complete' | 'error';

export interface DatasetSet {
  id: string;
  name: string;
}

export interface Dataset {
  id: string;
  name: string;
  description: string;
  state: DatasetState;
  sets: DatasetSet[];
  /** Element count of each set, by set name. */
  set_elements: Record<string, number>;
  unique_elements: boolean;
  corpus_id: string;
  creator: string | null;
  task_id: string | null;
  /** The job of the dataset's last populate, followed while it builds; absent on older servers. */
  populate_job_id?: string | null;
  created: string;
  updated: string;
}

/** One row of ListDatasetElements: an element in one set. */
export interface DatasetElement {
  set: string;
  element: ElementListItem;
}

/** Cursor pagination (ListDatasetElements): `next` holds the next page's whole address. */
export interface CursorPage<T> {
  next: string | null;
  previous: string | null;
  results: T[];
  count?: number | null;
}

/** Element dataset-set entry (ListElementDatasetSets), neighbours when asked with_neighbors. */
export interface ElementDatasetSet {
  dataset: Dataset;
  set: string;
  previous: string | null;
  next: string | null;
}

export interface DatasetCreate {
  name: string;
  description: string;
  unique_elements?: boolean;
  set_names?: string[];
}

export interface DatasetUpdate {
  name?: string;
  description?: string;
  unique_elements?: boolean;
  /** Only back to 'open' (a project admin reopening a complete or failed dataset). */
  state?: 'open';
}

/** Populate payload (spec 001 §3): set name → fraction of count, fractions summing to 1. */
export interface PopulatePayload {
  recursive: boolean;
  types: string[];
  count: number;
  sets: Record<string, number>;
  parent_id?: string | null;
  /** Reproduces an earlier split; the server draws one and records it when absent. */
  seed?: number;
}

/** What a populate job leaves as its result once processed. */
export interface PopulateResult {
  /** Elements added to the dataset, all sets together. */
  count: number;
  /** Elements added to each set, by name. */
  sets: Record<string, number>;
  seed: number;
}

/** POST /datasets/{id}/populate/ answers 202 with the dataset (now building) and its job. */
export interface PopulateStarted {
  dataset: Dataset;
  job: JobDetail;
}

export const DATASET_ELEMENTS_PAGE_SIZE = 20;

export const datasetKeys = {
  all: ['datasets'] as const,
  corpus: (corpusId: string) => [...datasetKeys.all, 'corpus', corpusId] as const,
  detail: (id: string) => [...datasetKeys.all, 'detail', id] as const,
  elements: (id: string, set: string) => [...datasetKeys.all, 'elements', id, set] as const,
  elementSets: (elementId: string) => [...datasetKeys.all, 'element-sets', elementId] as const,
};

/** Every dataset of a project, all pages read (a project has tens, not thousands). */
export async function fetchCorpusDatasets(corpusId: string): Promise<Dataset[]> {
  const datasets: Dataset[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api<Page<Dataset>>(`/corpus/${corpusId}/datasets/`, {
      query: { page, page_size: 100 },
    });
    datasets.push(...answer.results);
    if (!answer.next) return datasets;
  }
}

export function fetchDataset(id: string): Promise<Dataset> {
  return api<Dataset>(`/datasets/${id}/`);
}

export function createDataset(corpusId: string, body: DatasetCreate): Promise<Dataset> {
  return api<Dataset>(`/corpus/${corpusId}/datasets/`, { method: 'POST', body });
}

export function updateDataset(id: string, patch: DatasetUpdate): Promise<Dataset> {
  return api<Dataset>(`/datasets/${id}/`, { method: 'PATCH', body: patch });
}

export async function deleteDataset(id: string): Promise<void> {
  await api<null>(`/datasets/${id}/`, { method: 'DELETE' });
}

/** CloneDataset: a new open dataset with the same sets and elements. */
export function cloneDataset(id: string): Promise<Dataset> {
  return api<Dataset>(`/datasets/${id}/clone/`, { method: 'POST' });
}

export function createDatasetSet(datasetId: string, name: string): Promise<DatasetSet> {
  return api<DatasetSet>(`/datasets/${datasetId}/sets/`, { method: 'POST', body: { name } });
}

export function renameDatasetSet(
  datasetId: string,
  setId: string,
  name: string,
): Promise<DatasetSet> {
  return api<DatasetSet>(`/datasets/${datasetId}/sets/${setId}/`, {
    method: 'PATCH',
    body: { name },
  });
}

export async function deleteDatasetSet(datasetId: string, setId: string): Promise<void> {
  await api<null>(`/datasets/${datasetId}/sets/${setId}/`, { method: 'DELETE' });
}

/** One page of a set's elements; `cursor` is the `next` address of the page before, or null. */
export function fetchDatasetElements(
  datasetId: string,
  set: string,
  cursor: string | null,
  pageSize = DATASET_ELEMENTS_PAGE_SIZE,
): Promise<CursorPage<DatasetElement>> {
  if (cursor) {
    // `next` is absolute and already carries set, cursor and page size: follow it as given,
    // under our own base path so a proxy in front of the API changes nothing.
    const next = new URL(cursor, 'http://folia.invalid');
    return api<CursorPage<DatasetElement>>(`/datasets/${datasetId}/elements/${next.search}`);
  }
  return api<CursorPage<DatasetElement>>(`/datasets/${datasetId}/elements/`, {
    query: { set, page_size: pageSize, with_count: true },
  });
}

export async function addDatasetElement(
  datasetId: string,
  elementId: string,
  set: string,
): Promise<void> {
  await api<unknown>(`/datasets/${datasetId}/elements/`, {
    method: 'POST',
    body: { element_id: elementId, set },
  });
}

export async function removeDatasetElement(
  datasetId: string,
  elementId: string,
  set: string,
): Promise<void> {
  await api<null>(`/datasets/${datasetId}/elements/${elementId}/`, {
    method: 'DELETE',
    query: { set },
  });
}

/** Every dataset set an element is in, with its neighbours in each set when asked. */
export async function fetchElementSets(
  elementId: string,
  withNeighbors = true,
): Promise<ElementDatasetSet[]> {
  const answer = await api<Page<ElementDatasetSet>>(`/element/${elementId}/sets/`, {
    query: { with_neighbors: withNeighbors, page_size: 100 },
  });
  return answer.results;
}

/** Adds the user's selection of a project to one set (CreateDatasetElementsSelection). */
export async function addSelectionToSet(corpusId: string, setId: string): Promise<void> {
  await api<null>(`/corpus/${corpusId}/datasets/selection/`, {
    method: 'POST',
    body: { set_id: setId },
  });
}

export function populateDataset(
  datasetId: string,
  payload: PopulatePayload,
): Promise<PopulateStarted> {
  return api<PopulateStarted>(`/datasets/${datasetId}/populate/`, {
    method: 'POST',
    body: payload,
  });
}

/** The CSV of a dataset's split (element id, name, type, set, image URL); one set when given. */
export function datasetCsvUrl(datasetId: string, set?: string): string {
  return apiUrl(`/datasets/${datasetId}/csv/`, { set });
}

export const corpusDatasetsQuery = (corpusId: string) =>
  queryOptions({
    queryKey: datasetKeys.corpus(corpusId),
    queryFn: () => fetchCorpusDatasets(corpusId),
  });

export const datasetQuery = (id: string) =>
  queryOptions({ queryKey: datasetKeys.detail(id), queryFn: () => fetchDataset(id) });

/** A set's elements, page after page ('m' or "Load more" fetches the next). */
export const datasetElementsQuery = (datasetId: string, set: string) =>
  infiniteQueryOptions({
    queryKey: datasetKeys.elements(datasetId, set),
    queryFn: ({ pageParam }) => fetchDatasetElements(datasetId, set, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
