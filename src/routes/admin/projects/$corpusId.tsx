import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProjectAdminPage } from '@/features/admin/ProjectAdminPage';

export const Route = createFileRoute('/admin/projects/$corpusId')({
  beforeLoad: (ctx) => requireAccess({ uuidParams: ['corpusId'] })(ctx),
  component: AdminProjectRoute,
});

function AdminProjectRoute() {
  const { corpusId } = Route.useParams();
  return <ProjectAdminPage corpusId={corpusId} />;
}
