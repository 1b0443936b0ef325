import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/budget/')({
  staticData: { name: 'budget-list' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true }),
  component: () => <RoutePlaceholder name="budget-list" />,
});
