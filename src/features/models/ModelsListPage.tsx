import { PagedListState } from '@/components/PagedListState';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { MODELS_PAGE_SIZE, modelListQuery, type ModelListQuery } from '@/api/models';
import { GuardedButton } from '@/components/GuardedButton';
import { ListTable } from '@/components/ListTable';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { ui } from '@/components/styles';
import { SearchBox } from '@/components/SearchBox';
import { CreateModelModal } from './CreateModelModal';
import { listingModelsFailed } from './modelText';
import { useNotifiedError } from './useNotifiedError';
import { WorkerPicker } from './WorkerPicker';

/** The models the user can read (spec 000 §2 models-list): search, filters, pages, create. */
export function ModelsListPage({
  query,
  onQueryChange,
}: {
  query: ModelListQuery;
  onQueryChange: (query: ModelListQuery) => void;
}) {
  const models = useQuery(modelListQuery(query));
  useNotifiedError(models.error, listingModelsFailed);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const offline = useNeedsNetwork();
  const filtered = !!query.name || query.archived || !!query.compatibleWorker;

  return (
    <section aria-labelledby="models-heading" className="mx-auto max-w-4xl space-y-4 p-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="models-heading" className="text-2xl font-semibold text-brand-900">
          Models
        </h1>
        <GuardedButton
          blocked={offline}
          className={ui.primaryButton}
          onClick={() => setCreating(true)}
        >
          Create a model
        </GuardedButton>
      </header>
      <div className={`${ui.card} space-y-3`}>
        <SearchBox
          label="Search by name"
          value={query.name}
          onSearch={(name) => onQueryChange({ ...query, page: 1, name })}
        />
        <div className="flex flex-wrap items-end gap-4">
          <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className={ui.checkbox}
              checked={query.archived}
              onChange={(event) =>
                onQueryChange({ ...query, page: 1, archived: event.target.checked })
              }
            />
            Archived
          </label>
          <div className="grow">
            <WorkerPicker
              label="Compatible worker"
              emptyLabel="Any worker"
              value={query.compatibleWorker}
              onChange={(worker) =>
                onQueryChange({ ...query, page: 1, compatibleWorker: worker?.id ?? null })
              }
            />
          </div>
        </div>
      </div>
      <PagedListState
        query={models}
        failed={() => 'The models could not be loaded.'}
        empty={filtered ? 'No model matches these filters.' : 'There are no models yet.'}
      >
        {(page) => (
          <>
            <ListTable caption="Models" columns={['Name', 'Visibility', 'Updated']} last="State">
              {page.results.map((model) => (
                <tr key={model.id}>
                  <td className="py-2 pr-4 font-medium">
                    <Link to="/model/$modelId" params={{ modelId: model.id }} className={ui.link}>
                      {model.name}
                    </Link>
                  </td>
                  <td className="py-2 pr-4 text-slate-600">
                    {model.public ? 'Public' : 'Private'}
                  </td>
                  <td className="py-2 pr-4 text-slate-600">
                    {new Date(model.updated).toLocaleString()}
                  </td>
                  <td className="py-2 text-right text-slate-600">
                    {model.archived ? 'Archived' : ''}
                  </td>
                </tr>
              ))}
            </ListTable>
            <PaginationBar
              count={page.count}
              page={query.page}
              pageSize={MODELS_PAGE_SIZE}
              singular="model"
              label="Models pages"
              onPageChange={(page) => onQueryChange({ ...query, page })}
            />
          </>
        )}
      </PagedListState>
      {creating && (
        <CreateModelModal
          onClose={() => setCreating(false)}
          onCreated={(model) =>
            void navigate({ to: '/model/$modelId', params: { modelId: model.id } })
          }
        />
      )}
    </section>
  );
}
