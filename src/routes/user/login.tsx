import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadUser, requireAccess } from '@/app/guard';
import { LoginPage } from '@/features/account/components/LoginPage';
import { destinationAfterLogin, parseNextSearch } from '@/features/account/validation';

export const Route = createFileRoute('/user/login')({
  staticData: { name: 'login' },
  validateSearch: parseNextSearch,
  beforeLoad: async (ctx) => {
    await requireAccess({})(ctx);
    // Someone already logged in has nothing to do here: on to where the login would lead.
    if (await loadUser(ctx.context.queryClient)) {
      throw redirect({ href: destinationAfterLogin(ctx.search.next), replace: true });
    }
  },
  component: LoginRoute,
});

function LoginRoute() {
  const { next } = Route.useSearch();
  return <LoginPage next={next} />;
}
