import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/worker-runs')({
  staticData: { name: 'worker-runs' },
  beforeLoad: requireAccess({ login: true }),
  component: () => <RoutePlaceholder name="worker-runs" />,
});
