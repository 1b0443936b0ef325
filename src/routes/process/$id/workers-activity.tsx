import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { WorkersActivityPage } from '@/features/processes/WorkersActivityPage';

export const Route = createFileRoute('/process/$id/workers-activity')({
  staticData: { name: 'workers-activity' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['id'] })(ctx),
  component: WorkersActivityRoute,
});

function WorkersActivityRoute() {
  const { id } = Route.useParams();
  return <WorkersActivityPage id={id} />;
}
