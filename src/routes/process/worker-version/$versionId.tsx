import { useCallback } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { WorkerVersionPage } from '@/features/workers/WorkerVersionPage';
import { validateWorkerPageSearch } from '@/features/workers/listSearch';

export const Route = createFileRoute('/process/worker-version/$versionId')({
  staticData: { name: 'worker-version' },
  validateSearch: validateWorkerPageSearch,
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['versionId'] })(ctx),
  component: WorkerVersionRoute,
});

function WorkerVersionRoute() {
  const { versionId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onOpenConfiguration = useCallback(
    (id: string | null) =>
      void navigate({
        search: (previous) => ({ ...previous, configuration: id ?? undefined }),
      }),
    [navigate],
  );
  return (
    <WorkerVersionPage
      versionId={versionId}
      corpusId={search.corpus ?? null}
      openConfigurationId={search.configuration ?? null}
      onOpenConfiguration={onOpenConfiguration}
    />
  );
}
