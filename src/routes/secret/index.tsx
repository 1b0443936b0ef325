import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/secret/')({
  staticData: { name: 'secret-list' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true }),
  component: () => <RoutePlaceholder name="secret-list" />,
});
