import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/worker-version/$versionId')({
  staticData: { name: 'worker-version' },
  beforeLoad: requireAccess({ login: true, uuidParams: ['versionId'] }),
  component: () => <RoutePlaceholder name="worker-version" />,
});
