import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { PasswordResetRequestPage } from '@/features/account/components/PasswordResetRequestPage';

export const Route = createFileRoute('/user/password_reset')({
  staticData: { name: 'password-reset' },
  beforeLoad: requireAccess({}),
  component: PasswordResetRequestPage,
});
