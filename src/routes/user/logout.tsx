import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/user/logout')({
  staticData: { name: 'logout' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="logout" />,
});
