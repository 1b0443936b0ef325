import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { jobsListQuery } from '@/api/jobs';
import { Modal } from '@/components/modal/Modal';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useConnectivity } from '@/offline/runtime';
import { JobRow } from './JobRow';

export const JOBS_TITLE = 'Background jobs';
export const NO_JOBS = 'There are no background jobs.';

/** How often the rows' relative dates are written again while the list itself is unchanged. */
const CLOCK_MS = 15_000;

/** Spec 000 §2: the caller's jobs, newest first, each stoppable or deletable, and Refresh. */
export function JobsModal({ onClose }: { onClose: () => void }) {
  const { online } = useConnectivity();
  const jobs = useQuery(jobsListQuery(online));
  useErrorNotification(jobs.error);
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);
  const list = jobs.data;
  return (
    <Modal
      title={JOBS_TITLE}
      onClose={onClose}
      size="lg"
      footer={
        <>
          <button
            type="button"
            className={ui.secondaryButton}
            disabled={jobs.isFetching}
            aria-busy={jobs.isFetching}
            onClick={() => void jobs.refetch()}
          >
            Refresh
          </button>
          <button type="button" className={ui.primaryButton} onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      {!list ? (
        <p className="text-slate-500">
          {jobs.isError ? 'The jobs could not be read.' : 'Loading…'}
        </p>
      ) : list.length === 0 ? (
        <p className="text-slate-500">{NO_JOBS}</p>
      ) : (
        <ul aria-label={JOBS_TITLE} className="-my-3 divide-y divide-slate-200">
          {list.map((job) => (
            <JobRow key={job.id} job={job} listedAt={jobs.dataUpdatedAt} />
          ))}
        </ul>
      )}
    </Modal>
  );
}
