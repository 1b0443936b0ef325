import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { datasetKeys, type PopulateResult, type PopulateStarted } from '@/api/datasets';
import { isJobRunning, jobQuery, useFollowJob } from '@/api/jobs';
import { Modal } from '@/components/modal/Modal';
import { notify } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ProgressBar } from '@/components/ProgressBar';
import { ui } from '@/components/styles';
import { POPULATE_TITLE } from './PopulateForm';
import { CloseAction } from '@/components/modal/ModalActions';

/** How often the job is read while it runs: a populate of a few thousand takes seconds. */
export const POPULATE_POLL_MS = 1000;

/** Spec 001 §7, word for word. */
export function distributedNotice(count: number): string {
  return `${count} elements have been successfully distributed.`;
}

/** Spec 001 §8 says to show the job's error; a job may end in error without one. */
export const POPULATE_FAILED = 'The dataset could not be populated.';

function resultCount(result: unknown): number {
  const count = (result as Partial<PopulateResult> | null)?.count;
  return typeof count === 'number' ? count : 0;
}

export interface PopulateProgressProps {
  started: PopulateStarted;
  onClose: () => void;
  pollMs?: number;
}

/** Follows the populate job: its progress, then the notice and the dataset page, or its error. */
export function PopulateProgress({
  started,
  onClose,
  pollMs = POPULATE_POLL_MS,
}: PopulateProgressProps) {
  const { dataset } = started;
  const job = useQuery(jobQuery(started.job.id, pollMs));
  useErrorNotification(job.error);
  // The Background jobs list shows the end at once, even once this modal is closed.
  useFollowJob(started.job.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const data = job.data;
  const status = data?.status;

  // Once, however often React runs the effect: a second notice or navigation would be noise.
  const told = useRef(false);
  useEffect(() => {
    if (!data || isJobRunning(data) || told.current) return;
    told.current = true;
    void queryClient.invalidateQueries({ queryKey: datasetKeys.all });
    if (data.status === 'processed') {
      notify({ type: 'success', text: distributedNotice(resultCount(data.result)) });
      onClose();
      void navigate({ to: '/dataset/$datasetId', params: { datasetId: dataset.id } });
    } else {
      notify({ type: 'error', text: data.error || POPULATE_FAILED });
    }
  }, [data, queryClient, navigate, onClose, dataset.id]);

  const failed = status === 'error';
  return (
    <Modal title={POPULATE_TITLE} onClose={onClose} footer={<CloseAction onClose={onClose} />}>
      <p>
        {failed ? (
          <>
            Populating <strong className="font-semibold">{dataset.name}</strong> failed
            {data?.error ? `: ${data.error}` : '.'}
          </>
        ) : (
          <>
            Populating <strong className="font-semibold">{dataset.name}</strong>…
          </>
        )}
      </p>
      <ProgressBar
        label="Populate progress"
        tone={failed ? 'error' : 'brand'}
        value={failed ? 1 : status === 'queued' || !data ? null : (data.progress ?? 0)}
      />
      {!failed && (
        <p className={ui.help} aria-live="polite">
          {status === 'queued' || !data
            ? 'Waiting for the server to start…'
            : 'Drawing and splitting the elements.'}{' '}
          Closing this window does not stop it.
        </p>
      )}
    </Modal>
  );
}
