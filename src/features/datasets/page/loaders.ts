import { notFound } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/api/errors';
import { notifyError } from '@/components/notifications/store';
import { storedDatasetQuery } from '@/offline/datasetReads';

/**
 * An unknown dataset, or one in a project the caller cannot read (the API answers 404 for
 * both), is an error notification and the not-found page, as other detail routes. Other
 * failures leave the page to report them.
 */
export async function loadDataset(queryClient: QueryClient, datasetId: string): Promise<void> {
  try {
    await queryClient.ensureQueryData(storedDatasetQuery(datasetId));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
      notifyError(error);
      throw notFound();
    }
  }
}
