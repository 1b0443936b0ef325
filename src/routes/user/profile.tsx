import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/user/profile')({
  staticData: { name: 'user-profile' },
  beforeLoad: requireAccess({ login: true }),
  component: () => <RoutePlaceholder name="user-profile" />,
});
