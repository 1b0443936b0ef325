import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { dataFileKeys, deleteDataFile } from '@/api/dataFiles';
import { corpusKeys } from '@/api/corpora';
import { elementKeys } from '@/api/elements';
import {
  deleteJob,
  isJobRunning,
  jobKeys,
  jobQuery,
  useFollowJob,
  type ImportReport,
  type JobDetail,
} from '@/api/jobs';
import { notify, notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ProgressBar } from '@/components/ProgressBar';
import { ui } from './styles';

export interface ImportJobViewProps {
  jobId: string;
  corpusId: string;
  /** The uploaded files the import read, offered for deletion once it succeeded. */
  fileIds: readonly string[];
  /** How often the job is read while it runs. */
  pollMs: number;
  /** Back to choosing files for another import. */
  onDone: () => void;
}

/** Follows an import job to its end, then shows its report and where the result is. */
export function ImportJobView({ jobId, corpusId, fileIds, pollMs, onDone }: ImportJobViewProps) {
  const queryClient = useQueryClient();
  const job = useQuery(jobQuery(jobId, pollMs));
  useErrorNotification(job.error);
  // The Background jobs list shows the end at once, even if the user has left this page.
  useFollowJob(jobId);
  const ended = job.data && !isJobRunning(job.data);

  // What the import added shows in the project's lists from now on, and the element types it
  // added to the project are named on its pages.
  useEffect(() => {
    if (!ended) return;
    void queryClient.invalidateQueries({ queryKey: elementKeys.all });
    void queryClient.invalidateQueries({ queryKey: corpusKeys.detail(corpusId) });
  }, [ended, queryClient, corpusId]);

  const stop = useMutation({
    mutationFn: () => deleteJob(jobId),
    onError: (error) => notifyError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobKeys.detail(jobId) }),
  });

  if (!job.data) {
    return (
      <section aria-labelledby="import-heading" className={ui.card}>
        <h2 id="import-heading" className="text-lg font-semibold text-slate-900">
          Import
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          {job.isError ? 'The import could not be followed.' : 'Loading…'}
        </p>
      </section>
    );
  }

  const data = job.data;
  if (isJobRunning(data)) {
    return (
      <section aria-labelledby="import-heading" className={ui.card}>
        <h2 id="import-heading" className="text-lg font-semibold text-slate-900">
          Importing…
        </h2>
        <p className="mt-1 text-sm text-slate-600">{data.description}</p>
        <div className="mt-3 space-y-1">
          <ProgressBar
            label="Import progress"
            value={data.status === 'queued' ? null : (data.progress ?? 0)}
          />
          <p className="text-sm text-slate-500" aria-live="polite">
            {data.status === 'queued'
              ? 'Waiting for the server to start the import…'
              : `${Math.round((data.progress ?? 0) * 100)}% done`}
          </p>
        </div>
        <p className="mt-3 text-sm text-slate-500">
          The import goes on if you leave this page; the background jobs list follows it.
        </p>
        <div className="mt-4">
          <button
            type="button"
            className={ui.secondaryButton}
            disabled={stop.isPending}
            onClick={() => stop.mutate()}
          >
            Stop the import
          </button>
        </div>
      </section>
    );
  }
  return <ImportResult job={data} corpusId={corpusId} fileIds={fileIds} onDone={onDone} />;
}

function isReport(value: unknown): value is ImportReport {
  return !!value && typeof value === 'object' && 'pages' in value && 'problems' in value;
}

const COUNTS: [keyof ImportReport, string, string][] = [
  ['folders', 'Folder', 'Folders'],
  ['pages', 'Page', 'Pages'],
  ['regions', 'Region', 'Regions'],
  ['lines', 'Line', 'Lines'],
  ['transcriptions', 'Transcription', 'Transcriptions'],
  ['images', 'Image', 'Images'],
];

function ImportResult({
  job,
  corpusId,
  fileIds,
  onDone,
}: {
  job: JobDetail;
  corpusId: string;
  fileIds: readonly string[];
  onDone: () => void;
}) {
  const report = isReport(job.result) ? job.result : null;
  const failed = job.status === 'error';
  const title = failed
    ? 'The import failed'
    : report?.stopped
      ? 'Import stopped'
      : report && report.problems.length > 0
        ? 'Import finished with problems'
        : 'Import finished';
  return (
    <section aria-labelledby="import-heading" className={ui.card}>
      <h2
        id="import-heading"
        className={`text-lg font-semibold ${failed ? 'text-red-800' : 'text-slate-900'}`}
      >
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{job.description}</p>
      {failed && job.error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {job.error}
        </p>
      )}
      {report && (
        <>
          {report.stopped && (
            <p className="mt-2 text-sm text-amber-800">
              The import was stopped: what was imported until then stays in the project.
            </p>
          )}
          <dl aria-label="Imported" className="mt-3 grid grid-cols-3 gap-3 sm:grid-cols-6">
            {COUNTS.map(([key, one, many]) => {
              const count = report[key] as number;
              return (
                <div key={key} className="rounded-md bg-slate-50 px-3 py-2 text-center">
                  <dt className="text-xs text-slate-500">{count === 1 ? one : many}</dt>
                  <dd className="text-lg font-semibold text-slate-900">{count}</dd>
                </div>
              );
            })}
          </dl>
          {report.types_created.length > 0 && (
            <p className="mt-3 text-sm text-slate-600">
              Element types added to the project: {report.types_created.join(', ')}
            </p>
          )}
          {report.problems.length > 0 && (
            <div className="mt-4">
              <h3 className="text-sm font-semibold text-slate-800">
                Problems ({report.problems.length})
              </h3>
              <table className="mt-1 w-full text-left text-sm" aria-label="Problems">
                <thead className="text-xs text-slate-500 uppercase">
                  <tr>
                    <th scope="col" className="py-1 pr-3">
                      File
                    </th>
                    <th scope="col" className="py-1">
                      Reason
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {report.problems.map((problem, index) => (
                    <tr key={index}>
                      <td className="py-1 pr-3 align-top font-medium break-all text-slate-800">
                        {problem.file}
                      </td>
                      <td className="py-1 text-red-700">{problem.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {report.skipped.length > 0 && (
            <p className="mt-3 text-sm text-slate-600">Skipped: {report.skipped.join(', ')}</p>
          )}
        </>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {report?.element_id ? (
          <Link to="/element/$id" params={{ id: report.element_id }} className={ui.link}>
            {report.folder_id ? 'Open the imported folder' : 'Open the folder'}
          </Link>
        ) : (
          <Link to="/browse/$corpusId" params={{ corpusId }} className={ui.link}>
            Browse the project
          </Link>
        )}
        <button type="button" className={ui.secondaryButton} onClick={onDone}>
          Import more files
        </button>
        {!failed && report && !report.stopped && fileIds.length > 0 && (
          <DeleteUploadsButton corpusId={corpusId} fileIds={fileIds} />
        )}
      </div>
    </section>
  );
}

/**
 * The uploads are copies of what the import stored: once it succeeded, they only take room on
 * the server. Offered, never done unasked: the same files may be imported elsewhere.
 */
function DeleteUploadsButton({
  corpusId,
  fileIds,
}: {
  corpusId: string;
  fileIds: readonly string[];
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async () => {
      for (const id of fileIds) await deleteDataFile(id);
    },
    onSuccess: () =>
      notify({
        type: 'success',
        text:
          fileIds.length === 1
            ? 'The uploaded file has been deleted.'
            : `The ${fileIds.length} uploaded files have been deleted.`,
      }),
    onError: (error) => notifyError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dataFileKeys.corpus(corpusId) }),
  });
  if (remove.isSuccess) return null;
  const count = fileIds.length;
  return (
    <button
      type="button"
      className={ui.secondaryButton}
      disabled={remove.isPending}
      onClick={() => remove.mutate()}
    >
      {remove.isPending
        ? 'Deleting…'
        : count === 1
          ? 'Delete the uploaded file'
          : `Delete the ${count} uploaded files`}
    </button>
  );
}
