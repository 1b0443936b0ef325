/**
 * While a dataset is being built: a notice, and the populate job's progress when the dataset
 * names its job (GET /jobs/{id}/, read again with the dataset).
 */
import { useQuery } from '@tanstack/react-query';
import { jobQuery } from '@/api/jobs';
import { ProgressBar } from '@/components/ProgressBar';
import { BUILDING_POLL_MS } from './useDataset';

export function BuildProgress({ jobId }: { jobId: string | null }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p>This dataset is being built: its sets fill as the elements are drawn.</p>
      {jobId ? <JobProgress jobId={jobId} /> : <ProgressBar label="Building" value={null} />}
    </div>
  );
}

function JobProgress({ jobId }: { jobId: string }) {
  const job = useQuery(jobQuery(jobId, BUILDING_POLL_MS));
  // A job we cannot read (another user's) still leaves the notice and an open-ended bar.
  const progress = job.data?.progress ?? null;
  return (
    <div className="flex items-center gap-3">
      <ProgressBar label="Building" value={progress} />
      {progress !== null && (
        <span className="shrink-0 tabular-nums">{Math.round(progress * 100)}%</span>
      )}
    </div>
  );
}
