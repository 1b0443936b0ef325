/** The publishing writes: each refreshes the lists that show what it made or changed. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createWorker,
  createWorkerVersion,
  updateWorkerVersion,
  workerKeys,
  type WorkerCreate,
  type WorkerVersion,
  type WorkerVersionCreate,
} from '@/api/workers';
import { currentUserQuery } from '@/api/user';
import { canManageWorkers } from '@/lib/rights';

/** Whether the signed-in user may publish workers; their buttons are hidden from the others. */
export function useCanManageWorkers(): boolean {
  const { data: user = null } = useQuery(currentUserQuery);
  return canManageWorkers(user);
}

export function useCreateWorker() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WorkerCreate) => createWorker(input),
    onSuccess: ({ worker }) => {
      queryClient.setQueryData(workerKeys.detail(worker.id), worker);
      // A new type slug made a type the filter and badges should know.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: [...workerKeys.all, 'list'] }),
        queryClient.invalidateQueries({ queryKey: workerKeys.types() }),
      ]);
    },
  });
}

function refreshVersions(
  queryClient: ReturnType<typeof useQueryClient>,
  version: WorkerVersion,
): Promise<unknown> {
  queryClient.setQueryData(workerKeys.version(version.id), version);
  const workerId = version.worker.id;
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...workerKeys.all, 'versions', workerId] }),
    // The schema new configurations follow may now be this version's.
    queryClient.invalidateQueries({ queryKey: workerKeys.latestVersions(workerId) }),
  ]);
}

export function useCreateWorkerVersion(workerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WorkerVersionCreate) => createWorkerVersion(workerId, input),
    onSuccess: (version) => refreshVersions(queryClient, version),
  });
}

export function useMakeVersionAvailable(versionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => updateWorkerVersion(versionId, { state: 'available' }),
    onSuccess: (version) => refreshVersions(queryClient, version),
  });
}
