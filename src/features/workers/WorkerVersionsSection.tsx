/** A worker's versions, newest first: name or revision, state, tag and branch, creation date. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { WORKERS_PAGE_SIZE, workerVersionsQuery } from '@/api/workers';
import { ListTable } from '@/components/ListTable';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { relativeTime } from '@/lib/relativeTime';
import { useCanManageWorkers } from './publish/api';
import { NewWorkerVersionModal } from './publish/NewWorkerVersionModal';
import { WorkerVersionName, WorkerVersionStateBadge, tagAndBranch } from './WorkerVersionLabel';

export function WorkerVersionsSection({
  workerId,
  workerName,
}: {
  workerId: string;
  workerName: string;
}) {
  const [page, setPage] = useState(1);
  const versions = useQuery(workerVersionsQuery(workerId, page));
  useErrorNotification(versions.error);
  const canPublish = useCanManageWorkers();
  const offline = useNeedsNetwork();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  return (
    <section aria-labelledby="versions-heading" className={`${ui.card} space-y-3`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="versions-heading" className="text-lg font-semibold text-slate-900">
          Versions
        </h2>
        {canPublish && (
          <GuardedButton
            blocked={offline}
            className={ui.secondaryButton}
            onClick={() => setCreating(true)}
          >
            New version
          </GuardedButton>
        )}
      </div>
      {versions.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : versions.isError ? (
        <p className="text-slate-600">The versions could not be loaded.</p>
      ) : versions.data.count === 0 ? (
        <p className="text-slate-600">This worker has no version yet.</p>
      ) : (
        <>
          <ListTable
            caption="Versions"
            columns={['Version', 'State', 'Tag / branch', 'Created']}
            last="Details"
          >
            {versions.data.results.map((version) => (
              <tr key={version.id}>
                <td className="py-2 pr-4">
                  <WorkerVersionName version={version} />
                </td>
                <td className="py-2 pr-4">
                  <WorkerVersionStateBadge state={version.state} />
                </td>
                <td className="py-2 pr-4 text-slate-600">{tagAndBranch(version)}</td>
                <td className="py-2 pr-4 text-slate-600" title={version.created}>
                  {relativeTime(version.created)}
                </td>
                <td className="py-2 text-right">
                  <Link
                    to="/process/worker-version/$versionId"
                    params={{ versionId: version.id }}
                    className={ui.link}
                  >
                    Details
                  </Link>
                </td>
              </tr>
            ))}
          </ListTable>
          <PaginationBar
            count={versions.data.count}
            page={page}
            pageSize={WORKERS_PAGE_SIZE}
            singular="version"
            label="Versions pages"
            showJump={false}
            onPageChange={setPage}
          />
        </>
      )}
      {creating && (
        <NewWorkerVersionModal
          workerId={workerId}
          workerName={workerName}
          onClose={() => setCreating(false)}
          onCreated={(version) => {
            // The list behind shows it on page 1, the newest first, for when the author returns.
            setPage(1);
            void navigate({
              to: '/process/worker-version/$versionId',
              params: { versionId: version.id },
              search: {},
            });
          }}
        />
      )}
    </section>
  );
}
