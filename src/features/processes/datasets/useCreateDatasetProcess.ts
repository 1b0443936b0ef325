/**
 * What a "Create a process" button on a dataset runs: the dataset process is made with the
 * dataset's sets, then its datasets step opens. A failure says why, in the words of spec 000
 * §8 ("An error occurred creating the process: reason").
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { Dataset } from '@/api/datasets';
import { processKeys } from '@/api/processes';
import { notifyError } from '@/components/notifications/store';
import { CREATE_ERROR } from '@/features/processes/create/useCreateProcess';
import { createDatasetProcess } from './createDatasetProcess';

export function useCreateDatasetProcess() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (dataset: Pick<Dataset, 'corpus_id' | 'sets'>) => createDatasetProcess(dataset),
    onSuccess: (id) => {
      void queryClient.invalidateQueries({ queryKey: processKeys.all });
      void navigate({ to: '/process/$id/datasets', params: { id } });
    },
    onError: (error) => notifyError(error, CREATE_ERROR),
  });
  return {
    create: (dataset: Pick<Dataset, 'corpus_id' | 'sets'>) => mutation.mutate(dataset),
    pending: mutation.isPending,
  };
}
