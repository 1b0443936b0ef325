import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/$id/workers-activity')({
  staticData: { name: 'workers-activity' },
  beforeLoad: requireAccess({ login: true, uuidParams: ['id'] }),
  component: () => <RoutePlaceholder name="workers-activity" />,
});
