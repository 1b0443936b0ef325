import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/budget/$budgetId')({
  staticData: { name: 'budget-details' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true, uuidParams: ['budgetId'] }),
  component: () => <RoutePlaceholder name="budget-details" />,
});
