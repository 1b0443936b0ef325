import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { MODELS_PAGE_SIZE, modelVersionsQuery } from '@/api/models';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { formatSize } from '@/lib/formatSize';
import { ModelVersionState } from './ModelVersionState';
import { NewVersionModal } from './NewVersionModal';

/** A model's versions, newest first, each leading to its own page; contributors add one. */
export function ModelVersionsSection({ modelId, canEdit }: { modelId: string; canEdit: boolean }) {
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const offline = useNeedsNetwork();
  const versions = useQuery(modelVersionsQuery(modelId, page));
  useErrorNotification(versions.error);
  return (
    <section aria-labelledby="versions-heading" className={`${ui.card} space-y-3 p-6`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="versions-heading" className="text-lg font-semibold text-slate-900">
          Versions
        </h2>
        {canEdit && (
          <GuardedButton
            blocked={offline}
            className={ui.secondaryButton}
            onClick={() => setAdding(true)}
          >
            New version
          </GuardedButton>
        )}
      </div>
      {adding && <NewVersionModal modelId={modelId} onClose={() => setAdding(false)} />}
      {versions.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : versions.isError ? (
        <p className="text-slate-600">The versions could not be loaded.</p>
      ) : versions.data.count === 0 ? (
        <p className="text-slate-600">This model has no versions yet.</p>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
              <caption className="sr-only">Versions</caption>
              <thead className="text-slate-500">
                <tr>
                  {['Version', 'State', 'Tag', 'Size', 'Created'].map((column) => (
                    <th key={column} scope="col" className="py-2 pr-4 font-medium">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {versions.data.results.map((version) => (
                  <tr key={version.id}>
                    <td className="py-2 pr-4 font-mono text-xs">
                      <Link
                        to="/model-version/$versionId"
                        params={{ versionId: version.id }}
                        className={ui.link}
                        aria-label={`Version ${version.tag ?? version.id}`}
                      >
                        {version.id.slice(0, 8)}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">
                      <ModelVersionState state={version.state} />
                    </td>
                    <td className="py-2 pr-4 text-slate-700">{version.tag ?? '—'}</td>
                    <td className="py-2 pr-4 text-slate-700">
                      {version.size == null ? '—' : formatSize(version.size)}
                    </td>
                    <td className="py-2 pr-4 text-slate-600">
                      {new Date(version.created).toLocaleString()}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <PaginationBar
            count={versions.data.count}
            page={page}
            pageSize={MODELS_PAGE_SIZE}
            singular="version"
            label="Versions pages"
            onPageChange={setPage}
          />
        </>
      )}
    </section>
  );
}
