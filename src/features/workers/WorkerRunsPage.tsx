/**
 * The user's local worker runs (spec 000 §2 worker-runs; GET /process/local/workers/): the runs
 * of the personal process a worker developer runs workers under, each opening its details.
 */
import { PagedListState } from '@/components/PagedListState';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { WORKERS_PAGE_SIZE, localWorkerRunsQuery, type LocalWorkerRun } from '@/api/workers';
import { ListTable } from '@/components/ListTable';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { WorkerRunModal } from './WorkerRunModal';

/** A run's version: its number, else the start of its Git revision. */
function runVersionLabel(version: LocalWorkerRun['worker_version']): string {
  if (version.version !== null) return `Version ${version.version}`;
  const revision = version.revision?.hash ?? version.revision_url?.split('/').pop();
  return revision ? revision.slice(0, 12) : version.id.slice(0, 8);
}

export function WorkerRunsPage() {
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const runs = useQuery(localWorkerRunsQuery(page));
  useErrorNotification(runs.error);

  return (
    <section aria-labelledby="worker-runs-heading" className="mx-auto max-w-4xl space-y-4 p-6">
      <h1 id="worker-runs-heading" className="text-2xl font-semibold text-brand-900">
        Worker runs
      </h1>
      <p className="text-sm text-slate-600">
        The worker runs of your local process, for running workers on your own machine.
      </p>
      <PagedListState
        query={runs}
        failed={() => 'The worker runs could not be loaded.'}
        empty="You have no local worker run yet."
      >
        {(listed) => (
          <>
            <ListTable
              caption="Worker runs"
              columns={['Worker', 'Version', 'Model', 'Configuration']}
              last="Details"
            >
              {listed.results.map((run) => (
                <tr key={run.id}>
                  <td className="py-2 pr-4 font-medium">
                    <Link
                      to="/process/workers/$workerId"
                      params={{ workerId: run.worker_version.worker.id }}
                      search={{}}
                      className={ui.link}
                    >
                      {run.worker_version.worker.name}
                    </Link>
                  </td>
                  <td className="py-2 pr-4">
                    <Link
                      to="/process/worker-version/$versionId"
                      params={{ versionId: run.worker_version.id }}
                      search={{}}
                      className={ui.link}
                    >
                      {runVersionLabel(run.worker_version)}
                    </Link>
                  </td>
                  <td className="py-2 pr-4 text-slate-600">
                    {run.model_version
                      ? `${run.model_version.model.name}${run.model_version.tag ? ` (${run.model_version.tag})` : ''}`
                      : '—'}
                  </td>
                  <td className="py-2 pr-4 text-slate-600">{run.configuration?.name ?? '—'}</td>
                  <td className="py-2 text-right">
                    <button
                      type="button"
                      className={ui.secondaryButton}
                      aria-label={`Details of the ${run.worker_version.worker.name} run`}
                      onClick={() => setOpenId(run.id)}
                    >
                      Details
                    </button>
                  </td>
                </tr>
              ))}
            </ListTable>
            <PaginationBar
              count={listed.count}
              page={page}
              pageSize={WORKERS_PAGE_SIZE}
              singular="worker run"
              label="Worker runs pages"
              onPageChange={setPage}
            />
          </>
        )}
      </PagedListState>
      {openId && <WorkerRunModal id={openId} onClose={() => setOpenId(null)} />}
    </section>
  );
}
