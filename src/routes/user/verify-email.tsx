import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { VerifyEmailPage } from '@/features/account/components/VerifyEmailPage';
import { parseVerifyEmailSearch } from '@/features/account/validation';

export const Route = createFileRoute('/user/verify-email')({
  staticData: { name: 'user-verify-email' },
  validateSearch: parseVerifyEmailSearch,
  beforeLoad: requireAccess({}),
  component: VerifyEmailRoute,
});

function VerifyEmailRoute() {
  const { uidb64, token } = Route.useSearch();
  return <VerifyEmailPage uidb64={uidb64} token={token} />;
}
