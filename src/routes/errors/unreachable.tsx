import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/errors/unreachable')({
  staticData: { name: 'unreachable' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="unreachable" />,
});
