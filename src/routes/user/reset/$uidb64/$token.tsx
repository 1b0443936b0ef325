import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { PasswordResetConfirmPage } from '@/features/account/components/PasswordResetConfirmPage';

export const Route = createFileRoute('/user/reset/$uidb64/$token')({
  staticData: { name: 'password-reset-confirm' },
  // Called through a wrapper: passed bare, the guard's loose signature widens the params to unknown.
  beforeLoad: (ctx) => requireAccess({})(ctx),
  component: PasswordResetConfirmRoute,
});

function PasswordResetConfirmRoute() {
  const { uidb64, token } = Route.useParams();
  // A new link means a new form: nothing typed for another link may linger.
  return <PasswordResetConfirmPage key={`${uidb64}/${token}`} uidb64={uidb64} token={token} />;
}
