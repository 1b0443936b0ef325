import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/agents')({
  staticData: { name: 'agents' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true }),
  component: () => <RoutePlaceholder name="agents" />,
});
