/**
 * Creates a workers process (POST /process/corpus/) and opens its filter step, where the
 * elements it selects are counted and adjusted before workers are configured.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  createProcess,
  processConfigurationKeys,
  type ProcessCreate,
} from '@/api/processConfiguration';
import { processKeys } from '@/api/processes';
import { notifyError } from '@/components/notifications/store';

/** Spec 000 §8: "An error occurred creating the process: reason". */
export const CREATE_ERROR = 'An error occurred creating the process';

export function useCreateProcess() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: createProcess,
    onSuccess: (process) => {
      queryClient.setQueryData(processConfigurationKeys.process(process.id), process);
      // The processes list shows it next time it opens.
      void queryClient.invalidateQueries({ queryKey: processKeys.all });
      void navigate({ to: '/process/$id/filter', params: { id: process.id } });
    },
    onError: (error) => notifyError(error, CREATE_ERROR),
  });
  return {
    create: (input: ProcessCreate) => mutation.mutate(input),
    pending: mutation.isPending,
  };
}
