import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/user/login')({
  staticData: { name: 'login' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="login" />,
});
