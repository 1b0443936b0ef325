import { useCallback } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { WorkerPage } from '@/features/workers/WorkerPage';
import { validateWorkerPageSearch } from '@/features/workers/listSearch';

export const Route = createFileRoute('/process/workers/$workerId')({
  staticData: { name: 'worker-details' },
  validateSearch: validateWorkerPageSearch,
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['workerId'] })(ctx),
  component: WorkerRoute,
});

function WorkerRoute() {
  const { workerId } = Route.useParams();
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
    <WorkerPage
      workerId={workerId}
      corpusId={search.corpus ?? null}
      openConfigurationId={search.configuration ?? null}
      onOpenConfiguration={onOpenConfiguration}
    />
  );
}
