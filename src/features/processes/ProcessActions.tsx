/**
 * What may be done to a process in its state (spec 000 §4, §7): Stop while it is pending or
 * running, Retry once finished, Delete when finished or never started, Clear the worker runs of
 * one that has no tasks, Configure it before it starts, and Select failures when the selection
 * feature is on. All but Select failures need admin rights on the project.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  clearProcess,
  deleteProcess,
  isFinished,
  processKeys,
  retryProcess,
  selectFailures,
  stopProcess,
} from '@/api/processes';
import type { Process } from '@/api/processTypes';
import { serverInfoQuery } from '@/api/serverInfo';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { processName } from './labels';

/** How long the "deletion recorded" notice stays (spec 000 §8). */
export const DELETION_NOTICE_MS = 10_000;

export function ProcessActions({ process, admin }: { process: Process; admin: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const offline = useNeedsNetwork();
  const selectionOn = !!useQuery(serverInfoQuery).data?.features.selection;
  const [confirmDelete, setConfirmDelete] = useState(false);

  const refresh = async (updated?: Process) => {
    if (updated) queryClient.setQueryData(processKeys.detail(process.id), updated);
    await queryClient.invalidateQueries({ queryKey: processKeys.detail(process.id) });
    await queryClient.invalidateQueries({ queryKey: processKeys.lists() });
  };

  const stop = useMutation({
    mutationFn: () => stopProcess(process.id),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  const retry = useMutation({
    mutationFn: () => retryProcess(process.id),
    onSuccess: async (updated) => {
      await refresh(updated);
      // The new run is the latest: show it.
      void navigate({
        to: '/process/$id/{-$selectedRun}',
        params: { id: process.id, selectedRun: undefined },
      });
    },
    onError: (error) => notifyError(error),
  });
  const clear = useMutation({
    mutationFn: () => clearProcess(process.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: processKeys.workerRuns(process.id) });
      notify({ type: 'success', text: 'The worker runs of this process have been removed.' });
    },
    onError: (error) => notifyError(error),
  });
  const failures = useMutation({
    mutationFn: () => selectFailures(process.id),
    onSuccess: () =>
      notify({
        type: 'success',
        text: 'The elements this process failed on have been added to your selection.',
      }),
    onError: (error) => notifyError(error),
  });
  const remove = useMutation({
    mutationFn: () => deleteProcess(process.id),
    onSuccess: async ({ scheduled }) => {
      setConfirmDelete(false);
      if (scheduled) {
        notify({
          type: 'info',
          text: `Deletion of process ${process.id} has been recorded and will be performed soon.`,
          timeout: DELETION_NOTICE_MS,
        });
      } else {
        notify({ type: 'success', text: `Process ${processName(process)} has been deleted.` });
      }
      queryClient.removeQueries({ queryKey: processKeys.detail(process.id) });
      await queryClient.invalidateQueries({ queryKey: processKeys.lists() });
      void navigate({ to: '/process/', search: {} });
    },
    onError: (error) => {
      setConfirmDelete(false);
      notifyError(error);
    },
  });

  const state = process.state;
  const finished = isFinished(state);
  const hasTasks = process.tasks.length > 0;
  const busy =
    stop.isPending || retry.isPending || clear.isPending || failures.isPending || remove.isPending;

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Process actions">
      {admin && !hasTasks && state === 'unscheduled' && (
        <Link to="/process/$id/configure" params={{ id: process.id }} className={ui.primaryButton}>
          Configure
        </Link>
      )}
      {admin && (state === 'pending' || state === 'running') && (
        <GuardedButton
          blocked={offline}
          disabled={busy}
          className={ui.dangerOutlineButton}
          onClick={() => stop.mutate()}
        >
          Stop
        </GuardedButton>
      )}
      {admin && finished && process.mode !== 'files' && (
        <GuardedButton
          blocked={offline}
          disabled={busy}
          className={ui.secondaryButton}
          onClick={() => retry.mutate()}
        >
          Retry
        </GuardedButton>
      )}
      {admin && state === 'unscheduled' && !hasTasks && (
        <GuardedButton
          blocked={offline}
          disabled={busy}
          className={ui.secondaryButton}
          onClick={() => clear.mutate()}
        >
          Clear
        </GuardedButton>
      )}
      {selectionOn && hasTasks && (
        <GuardedButton
          blocked={offline}
          disabled={busy}
          className={ui.secondaryButton}
          onClick={() => failures.mutate()}
        >
          Select failures
        </GuardedButton>
      )}
      {admin && (finished || state === 'unscheduled') && (
        <GuardedButton
          blocked={offline}
          disabled={busy}
          className={ui.dangerButton}
          onClick={() => setConfirmDelete(true)}
        >
          Delete
        </GuardedButton>
      )}
      <ConfirmDialog
        open={confirmDelete}
        title="Delete process"
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirmDelete(false)}
      >
        Are you sure you want to delete the process {processName(process)}? Its tasks, logs and
        artifacts will be deleted too.
      </ConfirmDialog>
    </div>
  );
}
