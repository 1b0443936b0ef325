import { useId } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteJob, jobQuery, jobsChanged, type Job } from '@/api/jobs';
import { notifyError } from '@/components/notifications/store';
import { ProgressBar } from '@/components/ProgressBar';
import { ui } from '@/components/styles';
import { relativeTime } from '@/lib/relativeTime';
import { jobMoment, statusLabel, statusTone, type StatusTone } from './jobStatus';

const BADGES: Record<StatusTone, string> = {
  waiting: 'bg-slate-100 text-slate-700',
  running: 'bg-sky-100 text-sky-800',
  success: 'bg-emerald-100 text-emerald-800',
  error: 'bg-red-100 text-red-800',
};

/**
 * One job: what it does, its status and when, its progress while it runs, and Stop (a started
 * job) or Delete (any other: a queued one never runs, an ended one leaves the list). Both are
 * DELETE /jobs/{id}/; the list is read again after either.
 */
export function JobRow({ job: listed, listedAt }: { job: Job; listedAt: number }) {
  const queryClient = useQueryClient();
  // A screen following this job (an import's progress) reads it more often than the list: its
  // newer answer is shown, never fetched from here.
  const detail = useQuery({ ...jobQuery(listed.id), enabled: false });
  const job = detail.data && detail.dataUpdatedAt > listedAt ? detail.data : listed;
  const started = job.status === 'started';
  const remove = useMutation({
    mutationFn: () => deleteJob(job.id),
    onError: (error) => notifyError(error),
    onSettled: () => jobsChanged(queryClient),
  });
  const moment = jobMoment(job);
  const action = started ? 'Stop' : 'Delete';
  // The server only stops a job between two of its steps: until the list says it ended, the
  // button says the request was heard rather than offering Stop again.
  const stopping = started && remove.isSuccess;
  const descriptionId = useId();
  return (
    <li className="flex flex-col gap-2 py-3" aria-labelledby={descriptionId}>
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p id={descriptionId} className="font-medium break-words text-slate-900">
            {job.description}
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <span
              className={`rounded-full px-2 py-0.5 font-medium ${BADGES[statusTone(job.status)]}`}
            >
              {statusLabel(job.status)}
            </span>
            <time dateTime={moment.at} title={moment.at}>
              {moment.verb} {relativeTime(moment.at)}
            </time>
          </p>
        </div>
        <button
          type="button"
          className={started ? ui.secondaryButton : ui.dangerOutlineButton}
          aria-label={`${action}: ${job.description}`}
          disabled={remove.isPending || stopping}
          onClick={() => remove.mutate()}
        >
          {stopping ? 'Stopping…' : remove.isPending ? 'Please wait…' : action}
        </button>
      </div>
      {started && (
        <div className="flex items-center gap-2">
          <ProgressBar label={`Progress of ${job.description}`} value={job.progress} size="sm" />
          {job.progress !== null && (
            <span className="w-10 text-right text-xs text-slate-500 tabular-nums">
              {Math.round(job.progress * 100)}%
            </span>
          )}
        </div>
      )}
    </li>
  );
}
