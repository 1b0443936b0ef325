import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/$id/budget')({
  staticData: { name: 'process-budget' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true, uuidParams: ['id'] }),
  component: () => <RoutePlaceholder name="process-budget" />,
});
