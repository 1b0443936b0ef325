import { notFound } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import { ApiError } from '@/api/errors';
import type { Corpus } from '@/api/types';
import { notify, notifyError } from '@/components/notifications/store';

export const PROJECT_NOT_FOUND = 'Project is not found.';

/**
 * The project of the navigation page. An unknown project, or any failure to load it, is an
 * error notification and the not-found page (spec 001 §2, navigation route).
 */
export async function loadNavigationCorpus(
  queryClient: QueryClient,
  corpusId: string,
): Promise<Corpus> {
  try {
    return await queryClient.ensureQueryData(corpusQuery(corpusId));
  } catch (error) {
    // The API answers 404 both for a project that does not exist and for one the caller
    // cannot read; either way the person asked for a project they cannot see.
    if (error instanceof ApiError && error.status === 404) {
      notify({ type: 'error', text: PROJECT_NOT_FOUND });
    } else {
      notifyError(error);
    }
    throw notFound();
  }
}
