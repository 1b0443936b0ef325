import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/model-version/$versionId')({
  staticData: { name: 'model-version' },
  beforeLoad: requireAccess({ login: true, uuidParams: ['versionId'] }),
  component: () => <RoutePlaceholder name="model-version" />,
});
