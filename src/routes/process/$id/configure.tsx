import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { workerTypesQuery } from '@/api/workers';
import { requireAccess } from '@/app/guard';
import { ProcessConfigurePage } from '@/features/processes/create/ProcessConfigurePage';
import { redirectUnlessConfigurable } from '@/features/processes/create/loaders';
import { WorkerTypeBadge } from '@/features/workers/WorkerTypeBadge';

export const Route = createFileRoute('/process/$id/configure')({
  staticData: { name: 'process-configure' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['id'] })(ctx),
  loader: ({ context, params }) => redirectUnlessConfigurable(context.queryClient, params.id),
  component: ProcessConfigureRoute,
});

function ProcessConfigureRoute() {
  const { id } = Route.useParams();
  const types = useQuery(workerTypesQuery);
  return (
    <ProcessConfigurePage
      processId={id}
      renderWorkerType={(slug) => <WorkerTypeBadge slug={slug} types={types.data?.results} />}
    />
  );
}
