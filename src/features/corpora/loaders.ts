import { notFound } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { corpusListQuery, corpusQuery } from '@/api/corpora';
import { ApiError } from '@/api/errors';
import { notifyError } from '@/components/notifications/store';

/**
 * The Projects page starts loading its list; a failure is the page's to report (it refetches
 * on mount and notifies once), so the route still renders.
 */
export async function loadCorpusList(queryClient: QueryClient): Promise<void> {
  await queryClient.ensureQueryData(corpusListQuery).catch(() => undefined);
}

/**
 * An unknown project, or one the caller cannot read (the API answers 404 for both), is an error
 * notification and the not-found page. Other failures leave the page to report them.
 */
export async function loadCorpusSettings(
  queryClient: QueryClient,
  corpusId: string,
): Promise<void> {
  try {
    await queryClient.ensureQueryData(corpusQuery(corpusId));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
      notifyError(error);
      throw notFound();
    }
  }
}
