import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/user/verify-email')({
  staticData: { name: 'user-verify-email' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="user-verify-email" />,
});
