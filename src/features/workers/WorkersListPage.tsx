/** The workers (spec 000 §2 workers-list): their types in colour, a name search, a type filter. */
import { PagedListState } from '@/components/PagedListState';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  WORKERS_PAGE_SIZE,
  workerListQuery,
  workerTypesQuery,
  type WorkerListQuery,
} from '@/api/workers';
import { errorMessage } from '@/api/errors';
import { GuardedButton } from '@/components/GuardedButton';
import { ListTable } from '@/components/ListTable';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { SearchBox } from '@/components/SearchBox';
import { ui } from '@/components/styles';
import { isForbidden, useListErrorNotification } from './listErrors';
import { useCanManageWorkers } from './publish/api';
import { CreateWorkerModal } from './publish/CreateWorkerModal';
import { WorkerTypeBadge } from './WorkerTypeBadge';

export function WorkersListPage({
  query,
  onQueryChange,
}: {
  query: WorkerListQuery;
  onQueryChange: (query: WorkerListQuery) => void;
}) {
  const workers = useQuery(workerListQuery(query));
  const types = useQuery(workerTypesQuery);
  useListErrorNotification(workers.error);
  useListErrorNotification(types.error);
  const typeList = types.data?.results ?? [];
  const filtered = !!query.name || !!query.type;
  const canPublish = useCanManageWorkers();
  const offline = useNeedsNetwork();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();

  return (
    <section aria-labelledby="workers-heading" className="mx-auto max-w-4xl space-y-4 p-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="workers-heading" className="text-2xl font-semibold text-brand-900">
          Workers
        </h1>
        {canPublish && (
          <GuardedButton
            blocked={offline}
            className={ui.primaryButton}
            onClick={() => setCreating(true)}
          >
            Create a worker
          </GuardedButton>
        )}
      </header>
      <div className={`${ui.card} flex flex-col gap-3 sm:flex-row sm:items-end`}>
        <div className="grow">
          <SearchBox
            label="Search by name"
            value={query.name}
            onSearch={(name) => onQueryChange({ ...query, page: 1, name })}
          />
        </div>
        <div className="sm:w-56">
          <label htmlFor="worker-type-filter" className={ui.label}>
            Type
          </label>
          <select
            id="worker-type-filter"
            className={ui.input}
            value={query.type}
            onChange={(event) => onQueryChange({ ...query, page: 1, type: event.target.value })}
          >
            <option value="">All types</option>
            {/* A type from the address the list does not hold stays chosen. */}
            {query.type && !typeList.some((type) => type.slug === query.type) && (
              <option value={query.type}>{query.type}</option>
            )}
            {typeList.map((type) => (
              <option key={type.id} value={type.slug}>
                {type.display_name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedListState
        query={workers}
        failedRole="alert"
        failed={(error) => (
          <>
            {isForbidden(error)
              ? `You cannot list workers: ${errorMessage(error)}`
              : 'The workers could not be loaded.'}
          </>
        )}
        empty={filtered ? 'No worker matches these filters.' : 'There are no workers yet.'}
      >
        {(page) => (
          <>
            <ListTable caption="Workers" columns={['Name', 'Type', 'Slug']} last="Repository">
              {page.results.map((worker) => (
                <tr key={worker.id}>
                  <td className="py-2 pr-4 font-medium">
                    <Link
                      to="/process/workers/$workerId"
                      params={{ workerId: worker.id }}
                      className={ui.link}
                    >
                      {worker.name}
                    </Link>
                    {worker.archived && (
                      <span className="ml-2 text-xs text-slate-500">Archived</span>
                    )}
                  </td>
                  <td className="py-2 pr-4">
                    <WorkerTypeBadge slug={worker.type} types={typeList} />
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs text-slate-600">{worker.slug}</td>
                  <td className="py-2 text-right">
                    {worker.repository_url && (
                      <a
                        href={worker.repository_url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className={ui.link}
                        aria-label={`Repository of ${worker.name}`}
                      >
                        Repository
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </ListTable>
            <PaginationBar
              count={page.count}
              page={query.page}
              pageSize={WORKERS_PAGE_SIZE}
              singular="worker"
              label="Workers pages"
              onPageChange={(page) => onQueryChange({ ...query, page })}
            />
          </>
        )}
      </PagedListState>
      {creating && (
        <CreateWorkerModal
          onClose={() => setCreating(false)}
          onCreated={(worker) =>
            void navigate({
              to: '/process/workers/$workerId',
              params: { workerId: worker.id },
              search: {},
            })
          }
        />
      )}
    </section>
  );
}
