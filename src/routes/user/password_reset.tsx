import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/user/password_reset')({
  staticData: { name: 'password-reset' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="password-reset" />,
});
