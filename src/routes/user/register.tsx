import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/user/register')({
  staticData: { name: 'register' },
  beforeLoad: requireAccess({ feature: 'signup' }),
  component: () => <RoutePlaceholder name="register" />,
});
