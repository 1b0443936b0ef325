import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ModelPage } from '@/features/models/ModelPage';

export const Route = createFileRoute('/model/$modelId')({
  staticData: { name: 'model-details' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['modelId'] })(ctx),
  component: ModelRoute,
});

function ModelRoute() {
  const { modelId } = Route.useParams();
  return <ModelPage key={modelId} modelId={modelId} />;
}
