import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ModelVersionPage } from '@/features/models/ModelVersionPage';

export const Route = createFileRoute('/model-version/$versionId')({
  staticData: { name: 'model-version' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['versionId'] })(ctx),
  component: ModelVersionRoute,
});

function ModelVersionRoute() {
  const { versionId } = Route.useParams();
  return <ModelVersionPage key={versionId} versionId={versionId} />;
}
