/** The secrets screens' writes: each refreshes the names list, the only thing cached. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSecret, deleteSecret, secretKeys } from '@/api/secrets';

export function useCreateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretKeys.lists() }),
  });
}

export function useDeleteSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretKeys.lists() }),
  });
}
