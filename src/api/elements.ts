/**
 * Elements: fetchers, the one query-key factory and the query options every feature that shows
 * elements reuses (navigation lists, the element page, the viewer, the children tree).
 */
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, apiWithStatus, type Page } from './client';
import type { Element, ElementListItem, Neighbors, Polygon } from './types';

/** Query-string values of a list: filters, page, page_size, order, order_direction, with_* flags. */
export type ListQuery = Record<string, string | number | boolean | null | undefined>;

export const elementKeys = {
  all: ['elements'] as const,
  corpusList: (corpusId: string, query: ListQuery) =>
    [...elementKeys.all, 'corpus', corpusId, query] as const,
  detail: (id: string) => [...elementKeys.all, 'detail', id] as const,
  children: (id: string, query: ListQuery) => [...elementKeys.all, 'children', id, query] as const,
  parents: (id: string, query: ListQuery) => [...elementKeys.all, 'parents', id, query] as const,
  neighbors: (id: string) => [...elementKeys.all, 'neighbors', id] as const,
  imageElements: (imageId: string, page: number) =>
    [...elementKeys.all, 'image', imageId, page] as const,
  /** Folders for a picker: a project's top-level ones (parent null) or a folder's subfolders. */
  folders: (corpusId: string, parentId: string | null) =>
    [...elementKeys.all, 'folders', corpusId, parentId] as const,
};

export function fetchCorpusElements(
  corpusId: string,
  query: ListQuery,
): Promise<Page<ElementListItem>> {
  return api<Page<ElementListItem>>(`/corpus/${corpusId}/elements/`, { query });
}

export function fetchElement(id: string): Promise<Element> {
  return api<Element>(`/element/${id}/`);
}

export function fetchChildren(id: string, query: ListQuery): Promise<Page<ElementListItem>> {
  return api<Page<ElementListItem>>(`/elements/${id}/children/`, { query });
}

export function fetchParents(id: string, query: ListQuery): Promise<Page<ElementListItem>> {
  return api<Page<ElementListItem>>(`/elements/${id}/parents/`, { query });
}

export function fetchNeighbors(id: string): Promise<Neighbors[]> {
  return api<Neighbors[]>(`/elements/${id}/neighbors/`);
}

export function fetchImageElements(imageId: string, page: number): Promise<Page<ElementListItem>> {
  return api<Page<ElementListItem>>(`/image/${imageId}/elements/`, { query: { page } });
}

export const corpusElementsQuery = (corpusId: string, query: ListQuery) =>
  queryOptions({
    queryKey: elementKeys.corpusList(corpusId, query),
    queryFn: () => fetchCorpusElements(corpusId, query),
  });

export const elementQuery = (id: string) =>
  queryOptions({ queryKey: elementKeys.detail(id), queryFn: () => fetchElement(id) });

export const childrenQuery = (id: string, query: ListQuery) =>
  queryOptions({
    queryKey: elementKeys.children(id, query),
    queryFn: () => fetchChildren(id, query),
  });

export const parentsQuery = (id: string, query: ListQuery) =>
  queryOptions({
    queryKey: elementKeys.parents(id, query),
    queryFn: () => fetchParents(id, query),
  });

export const neighborsQuery = (id: string) =>
  queryOptions({ queryKey: elementKeys.neighbors(id), queryFn: () => fetchNeighbors(id) });

export const imageElementsQuery = (imageId: string, page: number) =>
  queryOptions({
    queryKey: elementKeys.imageElements(imageId, page),
    queryFn: () => fetchImageElements(imageId, page),
  });

/** Folders per picker page: enough to scan at a glance, 'Load more' for the rest. */
export const FOLDER_PAGE_SIZE = 20;

/** A picker only shows names, so zones are left out of the answer. */
const FOLDER_QUERY: ListQuery = {
  folder: true,
  order: 'name',
  with_has_children: true,
  with_zone: false,
  page_size: FOLDER_PAGE_SIZE,
};

export function fetchFolders(
  corpusId: string,
  parentId: string | null,
  page: number,
): Promise<Page<ElementListItem>> {
  return parentId
    ? fetchChildren(parentId, { ...FOLDER_QUERY, page })
    : fetchCorpusElements(corpusId, { ...FOLDER_QUERY, top_level: true, page });
}

export const foldersQuery = (corpusId: string, parentId: string | null) =>
  infiniteQueryOptions({
    queryKey: elementKeys.folders(corpusId, parentId),
    queryFn: ({ pageParam }) => fetchFolders(corpusId, parentId, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<ElementListItem>, _pages, lastPage: number) =>
      last.next ? lastPage + 1 : undefined,
  });

/** How a write ended: done at once, or left to a background job (the API answered 202). */
export type WriteOutcome = 'done' | 'scheduled';

const outcome = ({ status }: { status: number }): WriteOutcome =>
  status === 202 ? 'scheduled' : 'done';

/** POST /elements/create/: a folder, or a child that may sit on an image zone. */
export interface ElementCreate {
  corpus: string;
  type: string;
  name: string;
  parent?: string;
  image?: string;
  polygon?: Polygon;
}

export function createElement(body: ElementCreate): Promise<Element> {
  return api<Element>('/elements/create/', { method: 'POST', body });
}

export interface ElementUpdate {
  name?: string;
  type?: string;
  polygon?: Polygon;
  rotation_angle?: number;
  mirrored?: boolean;
}

export function updateElement(id: string, patch: ElementUpdate): Promise<Element> {
  return api<Element>(`/element/${id}/`, { method: 'PATCH', body: patch });
}

export async function deleteElement(id: string, deleteChildren: boolean): Promise<WriteOutcome> {
  return outcome(
    await apiWithStatus(`/element/${id}/`, {
      method: 'DELETE',
      query: { delete_children: deleteChildren },
    }),
  );
}

/** Removes every parent of `source` and puts it in `destination`. */
export async function moveElement(source: string, destination: string): Promise<WriteOutcome> {
  return outcome(
    await apiWithStatus('/element/move/', { method: 'POST', body: { source, destination } }),
  );
}

/** Adds `parentId` to the parents of `childId`, keeping the others. */
export async function linkElement(childId: string, parentId: string): Promise<WriteOutcome> {
  return outcome(
    await apiWithStatus(`/element/${childId}/parent/${parentId}/`, { method: 'POST' }),
  );
}

/** Deletes the project's elements the filters select, as the list shows them. */
export async function deleteCorpusElements(
  corpusId: string,
  filters: ListQuery,
  deleteChildren: boolean,
): Promise<WriteOutcome> {
  return outcome(
    await apiWithStatus(`/corpus/${corpusId}/elements/`, {
      method: 'DELETE',
      query: { ...filters, delete_children: deleteChildren },
    }),
  );
}

/**
 * After a write: any list, detail, tree or picker may show what changed, and only the queries
 * on screen are fetched again, so marking them all stale is cheap.
 */
export function invalidateElements(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: elementKeys.all });
}

/** A deleted element's own queries go, so nothing asks the server for it again. */
export function forgetElement(queryClient: QueryClient, id: string): void {
  queryClient.removeQueries({ queryKey: elementKeys.detail(id) });
  queryClient.removeQueries({ queryKey: elementKeys.neighbors(id) });
}

/** A IIIF URL of the image region at a given width (thumbnails, crops). */
export function iiifUrl(
  imageUrl: string,
  region: 'full' | { x: number; y: number; width: number; height: number },
  size: string,
): string {
  const regionPart =
    region === 'full' ? 'full' : `${region.x},${region.y},${region.width},${region.height}`;
  return `${imageUrl}/${regionPart}/${size}/0/default.jpg`;
}
