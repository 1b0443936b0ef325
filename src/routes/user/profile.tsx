import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProfilePage } from '@/features/account/components/ProfilePage';
import { ProfileGroupsSection } from '@/features/groups/ProfileGroupsSection';

export const Route = createFileRoute('/user/profile')({
  staticData: { name: 'user-profile' },
  beforeLoad: requireAccess({ login: true }),
  component: () => (
    <ProfilePage>
      <ProfileGroupsSection />
    </ProfilePage>
  ),
});
