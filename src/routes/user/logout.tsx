import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { LogoutPage } from '@/features/account/components/LogoutPage';

export const Route = createFileRoute('/user/logout')({
  staticData: { name: 'logout' },
  beforeLoad: requireAccess({}),
  component: LogoutPage,
});
