import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProcessFilterPage } from '@/features/processes/create/ProcessFilterPage';
import { redirectUnlessConfigurable } from '@/features/processes/create/loaders';

export const Route = createFileRoute('/process/$id/filter')({
  staticData: { name: 'process-filter' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['id'] })(ctx),
  loader: ({ context, params }) => redirectUnlessConfigurable(context.queryClient, params.id),
  component: ProcessFilterRoute,
});

function ProcessFilterRoute() {
  const { id } = Route.useParams();
  return <ProcessFilterPage processId={id} />;
}
