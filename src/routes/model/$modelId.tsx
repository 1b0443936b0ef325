import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/model/$modelId')({
  staticData: { name: 'model-details' },
  beforeLoad: requireAccess({ login: true, uuidParams: ['modelId'] }),
  component: () => <RoutePlaceholder name="model-details" />,
});
