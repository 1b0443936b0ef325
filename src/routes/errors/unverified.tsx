import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/errors/unverified')({
  staticData: { name: 'unverified' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="unverified" />,
});
