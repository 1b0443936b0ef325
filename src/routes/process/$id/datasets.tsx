import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/$id/datasets')({
  staticData: { name: 'process-datasets' },
  beforeLoad: requireAccess({ login: true, uuidParams: ['id'] }),
  component: () => <RoutePlaceholder name="process-datasets" />,
});
