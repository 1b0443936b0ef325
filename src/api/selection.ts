/**
 * The user's selection on the server (spec 001 §7 "Selection", "Classifications"): reading and
 * changing it, and the bulk actions that work on a project's part of it.
 */
import { api, type Page } from './client';
import type { ElementListItem } from './types';

/** The most ids one POST /elements/selection/ takes (server/services/selection.ts). */
export const SELECTION_ADD_MAX = 500;
/** The largest page the API serves: a selection of 10 000 elements reads in 10 calls. */
const READ_PAGE_SIZE = 1000;

/** Every selected element, with its project's name for the page's headings. */
export async function fetchWholeSelection(): Promise<ElementListItem[]> {
  const elements: ElementListItem[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api<Page<ElementListItem>>('/elements/selection/', {
      query: { page, page_size: READ_PAGE_SIZE, with_corpus: true },
    });
    elements.push(...answer.results);
    if (!answer.next) return elements;
  }
}

export async function selectOnServer(ids: readonly string[]): Promise<void> {
  await api<null>('/elements/selection/', { method: 'POST', body: { ids } });
}

export async function unselectOnServer(id: string): Promise<void> {
  await api<null>('/elements/selection/', { method: 'DELETE', body: { id } });
}

/** Without an id, DELETE /elements/selection/ clears the whole selection. */
export async function clearSelectionOnServer(): Promise<void> {
  await api<null>('/elements/selection/', { method: 'DELETE' });
}

/** Deletes the selected elements of the project, as a background job (project admins). */
export async function deleteSelectedElements(corpusId: string): Promise<void> {
  await api<null>(`/corpus/${corpusId}/selection/`, { method: 'DELETE' });
}

/** Moves the selected elements of the project into `destination`, as a background job. */
export async function moveSelection(corpusId: string, destination: string): Promise<void> {
  await api<null>('/elements/selection/move/', {
    method: 'POST',
    body: { corpus_id: corpusId, destination },
  });
}

/** Adds `parentId` as a parent of each selected element of the project, as a background job. */
export async function linkSelection(corpusId: string, parentId: string): Promise<void> {
  await api<null>('/elements/selection/parent/', {
    method: 'POST',
    body: { corpus_id: corpusId, parent_id: parentId },
  });
}

export interface ClassifySelectionResult {
  mode: 'create' | 'validate';
  corpus_id: string;
  ml_class: string | null;
  ids: string[];
  /** Classifications created (create) or validated (validate). */
  count: number;
}

/** Gives each selected element of the project a manual classification of `mlClass`. */
export function classifySelection(
  corpusId: string,
  mlClass: string,
): Promise<ClassifySelectionResult> {
  return api<ClassifySelectionResult>('/classifications/selection/', {
    method: 'POST',
    body: { mode: 'create', corpus_id: corpusId, ml_class: mlClass },
  });
}

/** Validates the pending classifications of the selected elements, of one class when named. */
export function validateSelectionClassifications(
  corpusId: string,
  mlClass: string | null,
): Promise<ClassifySelectionResult> {
  return api<ClassifySelectionResult>('/classifications/selection/', {
    method: 'POST',
    body: { mode: 'validate', corpus_id: corpusId, ...(mlClass ? { ml_class: mlClass } : {}) },
  });
}
