import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/user/reset/$uidb64/$token')({
  staticData: { name: 'password-reset-confirm' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="password-reset-confirm" />,
});
