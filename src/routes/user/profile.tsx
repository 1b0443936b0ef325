import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProfilePage } from '@/features/account/components/ProfilePage';

export const Route = createFileRoute('/user/profile')({
  staticData: { name: 'user-profile' },
  beforeLoad: requireAccess({ login: true }),
  component: ProfilePage,
});
