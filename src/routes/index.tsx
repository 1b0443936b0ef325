import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadUser, requireAccess } from '@/app/guard';
import { HomePage } from '@/features/shell/HomePage';

const guard = requireAccess({});

export const Route = createFileRoute('/')({
  staticData: { name: 'home' },
  beforeLoad: async (options) => {
    await guard(options);
    // Projects (corpus-list) are the default page once logged in.
    if (await loadUser(options.context.queryClient)) throw redirect({ to: '/browse/' });
  },
  component: HomePage,
});
