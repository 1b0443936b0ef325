/**
 * What the navigation page reads besides projects and elements: the project's ML classes, to
 * check a class filter and to name it on its chip.
 */
import { queryOptions } from '@tanstack/react-query';
import { api, type Page } from '@/api/client';
import { ApiError } from '@/api/errors';
import type { MlClassRef } from '@/api/types';

const CLASS_PAGE_SIZE = 500;
// A bound on a runaway listing; projects hold tens or hundreds of classes, not tens of thousands.
const MAX_CLASS_PAGES = 20;

export const navigationKeys = {
  classes: (corpusId: string) => ['navigation', 'classes', corpusId] as const,
};

/** Every class of the project, or null when this server has no class listing (404). */
export async function fetchCorpusClasses(corpusId: string): Promise<MlClassRef[] | null> {
  const classes: MlClassRef[] = [];
  for (let page = 1; page <= MAX_CLASS_PAGES; page += 1) {
    let answer: Page<MlClassRef>;
    try {
      answer = await api<Page<MlClassRef>>(`/corpus/${corpusId}/classes/`, {
        query: { page, page_size: CLASS_PAGE_SIZE },
      });
    } catch (error) {
      if (page === 1 && error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
    classes.push(...answer.results.map(({ id, name }) => ({ id, name })));
    if (!answer.next) break;
  }
  return classes;
}

export const corpusClassesQuery = (corpusId: string) =>
  queryOptions({
    queryKey: navigationKeys.classes(corpusId),
    queryFn: () => fetchCorpusClasses(corpusId),
    staleTime: 5 * 60 * 1000,
  });
