import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadUser, requireAccess } from '@/app/guard';
import { RegisterPage } from '@/features/account/components/RegisterPage';
import { destinationAfterLogin, parseNextSearch } from '@/features/account/validation';

export const Route = createFileRoute('/user/register')({
  staticData: { name: 'register' },
  validateSearch: parseNextSearch,
  beforeLoad: async (ctx) => {
    await requireAccess({ feature: 'signup' })(ctx);
    // A second sign-up would silently replace the session of the account in use.
    if (await loadUser(ctx.context.queryClient)) {
      throw redirect({ href: destinationAfterLogin(ctx.search.next), replace: true });
    }
  },
  component: RegisterRoute,
});

function RegisterRoute() {
  const { next } = Route.useSearch();
  return <RegisterPage next={next} />;
}
