/**
 * Elements: fetchers, the one query-key factory and the query options every feature that shows
 * elements reuses (navigation lists, the element page, the viewer, the children tree).
 */
import { queryOptions } from '@tanstack/react-query';
import { api, apiConditional, type Conditional, type Page } from './client';
import type { Element, ElementListItem, Neighbors } from './types';

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

/** Children with If-Modified-Since: a 304 means the list the caller holds is still right. */
export function fetchChildrenIfModified(
  id: string,
  query: ListQuery,
  since: string | null,
): Promise<Conditional<Page<ElementListItem>>> {
  return apiConditional<Page<ElementListItem>>(`/elements/${id}/children/`, {
    query,
    ifModifiedSince: since,
  });
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
