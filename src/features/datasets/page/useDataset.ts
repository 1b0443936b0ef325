import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { datasetKeys, type Dataset } from '@/api/datasets';
import { storedDatasetQuery } from '@/offline/datasetReads';

/** How often a dataset being built is read again. */
export const BUILDING_POLL_MS = 2000;

/**
 * The dataset, read again every 2 s while it is being built; once the build ends, its set
 * lists are read again too, as they were filled meanwhile.
 */
export function useDataset(datasetId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...storedDatasetQuery(datasetId),
    refetchInterval: (q) => (q.state.data?.state === 'building' ? BUILDING_POLL_MS : false),
  });
  const state = query.data?.state;
  const previous = useRef<Dataset['state'] | undefined>(state);
  useEffect(() => {
    if (previous.current === 'building' && state !== 'building') {
      void queryClient.invalidateQueries({
        queryKey: [...datasetKeys.all, 'elements', datasetId],
      });
    }
    previous.current = state;
  }, [state, datasetId, queryClient]);
  return query;
}
