import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  availableVersionsQuery,
  createProcessWorkerRun,
  processConfigurationKeys,
  recommendedVersionQuery,
} from '@/api/processConfiguration';
import { workerListQuery, type WorkerVersion } from '@/api/workers';
import { errorMessage } from '@/api/errors';
import { GuardedButton } from '@/components/GuardedButton';
import { Modal } from '@/components/modal/Modal';
import { SubmitActions } from '@/components/modal/ModalActions';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { versionLabel } from './versionLabels';

/** "Add a worker": the button, and the modal that picks a worker and one of its versions. */
export function AddWorkerRun({ processId }: { processId: string }) {
  const [open, setOpen] = useState(false);
  const offline = useNeedsNetwork();
  return (
    <>
      <GuardedButton blocked={offline} className={ui.primaryButton} onClick={() => setOpen(true)}>
        Add a worker
      </GuardedButton>
      {open && <AddWorkerRunModal processId={processId} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The recommended version first, then the other available ones, newest first. */
export function versionChoices(
  recommended: WorkerVersion | null | undefined,
  available: WorkerVersion[],
): WorkerVersion[] {
  const usable = recommended?.state === 'available' ? recommended : null;
  return usable ? [usable, ...available.filter((version) => version.id !== usable.id)] : available;
}

function AddWorkerRunModal({ processId, onClose }: { processId: string; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [workerId, setWorkerId] = useState('');
  const [chosenVersion, setChosenVersion] = useState('');
  const workers = useQuery(workerListQuery({ page: 1, name: search.trim(), type: '' }));
  const recommended = useQuery({ ...recommendedVersionQuery(workerId), enabled: !!workerId });
  const available = useQuery({ ...availableVersionsQuery(workerId), enabled: !!workerId });
  const versions = versionChoices(recommended.data, available.data ?? []);
  const versionsLoading = !!workerId && (recommended.isPending || available.isPending);
  // The recommended version (else the newest available one) until the user picks another.
  const versionId = versions.some((version) => version.id === chosenVersion)
    ? chosenVersion
    : (versions[0]?.id ?? '');
  const recommendedId = versions[0]?.id === recommended.data?.id ? recommended.data?.id : null;

  const create = useMutation({
    mutationFn: () =>
      createProcessWorkerRun(processId, { worker_version_id: versionId, parents: [] }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({
        queryKey: processConfigurationKeys.workerRuns(processId),
      });
      onClose();
    },
    onError: (error) => notifyError(error),
  });

  const blocked = !workerId
    ? 'Choose a worker'
    : versionsLoading
      ? 'The versions are loading'
      : !versionId
        ? 'This worker has no available version'
        : null;

  return (
    <Modal
      title="Add a worker"
      size="lg"
      pending={create.isPending}
      onClose={onClose}
      onSubmit={() => !blocked && create.mutate()}
      footer={
        <SubmitActions
          label="Add"
          pending={create.isPending}
          onCancel={onClose}
          blocked={blocked}
        />
      }
    >
      <div>
        <label htmlFor={`${id}-search`} className={ui.label}>
          Search workers
        </label>
        <input
          id={`${id}-search`}
          type="search"
          className={ui.input}
          value={search}
          maxLength={100}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <div>
        <label htmlFor={`${id}-worker`} className={ui.label}>
          Worker
        </label>
        <select
          id={`${id}-worker`}
          className={ui.input}
          value={workerId}
          onChange={(event) => {
            setWorkerId(event.target.value);
            setChosenVersion('');
          }}
        >
          <option value="">Choose a worker</option>
          {(workers.data?.results ?? [])
            .filter((worker) => !worker.archived)
            .map((worker) => (
              <option key={worker.id} value={worker.id}>
                {worker.name} ({worker.slug})
              </option>
            ))}
        </select>
        {workers.isError && (
          <p className={ui.fieldError}>
            The workers could not be listed: {errorMessage(workers.error)}
          </p>
        )}
      </div>
      {workerId && (
        <div>
          <label htmlFor={`${id}-version`} className={ui.label}>
            Version
          </label>
          <select
            id={`${id}-version`}
            className={ui.input}
            value={versionId}
            disabled={versionsLoading || versions.length === 0}
            onChange={(event) => setChosenVersion(event.target.value)}
          >
            {versions.map((version) => (
              <option key={version.id} value={version.id}>
                {versionLabel(version)}
                {version.id === recommendedId ? ' — recommended' : ''}
              </option>
            ))}
          </select>
          {!versionsLoading && versions.length === 0 && (
            <p className={ui.help}>This worker has no available version.</p>
          )}
        </div>
      )}
    </Modal>
  );
}
