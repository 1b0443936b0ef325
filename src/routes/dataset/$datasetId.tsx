import { useCallback } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { DatasetPage } from '@/features/datasets/page/DatasetPage';
import { loadDataset } from '@/features/datasets/page/loaders';
import { CreateDatasetProcessButton } from '@/features/processes/datasets/CreateDatasetProcessButton';

export interface DatasetSearch {
  /** The set whose elements are shown, by name; the first set when absent. */
  set?: string;
}

export const Route = createFileRoute('/dataset/$datasetId')({
  staticData: { name: 'dataset-details' },
  validateSearch: (search: Record<string, unknown>): DatasetSearch =>
    typeof search.set === 'string' && search.set ? { set: search.set } : {},
  beforeLoad: (ctx) => requireAccess({ uuidParams: ['datasetId'] })(ctx),
  loader: ({ context, params }) => loadDataset(context.queryClient, params.datasetId),
  component: DatasetRoute,
});

function DatasetRoute() {
  const { datasetId } = Route.useParams();
  const { set } = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSelectSet = useCallback(
    (next: string) => void navigate({ search: { set: next }, replace: true }),
    [navigate],
  );
  return (
    <DatasetPage
      key={datasetId}
      datasetId={datasetId}
      set={set}
      onSelectSet={onSelectSet}
      renderActions={(dataset, access) => (
        <CreateDatasetProcessButton dataset={dataset} isAdmin={access.canAdmin} />
      )}
    />
  );
}
