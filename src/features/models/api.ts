/** The model screens' writes: each refreshes what it changed, nothing more. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  addCompatibleWorker,
  addModelMember,
  modelMembersQuery,
  removeModelMember,
  createModel,
  modelKeys,
  removeCompatibleWorker,
  updateModel,
  type Model,
  type ModelCreate,
  type ModelUpdate,
} from '@/api/models';

export function useCreateModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ModelCreate) => createModel(input),
    onSuccess: (model) => {
      queryClient.setQueryData(modelKeys.detail(model.id), model);
      return queryClient.invalidateQueries({ queryKey: modelKeys.lists() });
    },
  });
}

export function useUpdateModel(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ModelUpdate) => updateModel(id, patch),
    onSuccess: (model: Model) => {
      queryClient.setQueryData(modelKeys.detail(id), model);
      return queryClient.invalidateQueries({ queryKey: modelKeys.lists() });
    },
  });
}

export function useCompatibleWorkerChange(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ workerId, add }: { workerId: string; add: boolean }) =>
      add ? addCompatibleWorker(modelId, workerId) : removeCompatibleWorker(modelId, workerId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: modelKeys.compatibleWorkers(modelId) }),
        // The list filtered by compatible worker changes with it.
        queryClient.invalidateQueries({ queryKey: modelKeys.lists() }),
      ]),
  });
}

export function useModelMemberChange(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      change: { add: { email: string; level: number } } | { remove: string },
    ): Promise<unknown> =>
      'add' in change
        ? addModelMember(modelId, change.add.email, change.add.level)
        : removeModelMember(change.remove),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: modelMembersQuery(modelId).queryKey }),
  });
}
