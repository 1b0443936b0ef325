import { createFileRoute, redirect } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProcessFilterPage } from '@/features/processes/create/ProcessFilterPage';
import { stillConfigurable } from '@/features/processes/create/loaders';

export const Route = createFileRoute('/process/$id/filter')({
  staticData: { name: 'process-filter' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['id'] })(ctx),
  loader: async ({ context, params }): Promise<void> => {
    if (!(await stillConfigurable(context.queryClient, params.id))) {
      throw redirect({
        to: '/process/$id/{-$selectedRun}',
        params: { id: params.id },
        replace: true,
      });
    }
  },
  component: ProcessFilterRoute,
});

function ProcessFilterRoute() {
  const { id } = Route.useParams();
  return <ProcessFilterPage processId={id} />;
}
