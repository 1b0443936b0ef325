import { Outlet, createRootRouteWithContext, redirect } from '@tanstack/react-router';
import { loadServerInfo, type RouterContext } from '@/app/guard';
import { Notifications } from '@/components/notifications/Notifications';

export const Route = createRootRouteWithContext<RouterContext>()({
  // On every navigation the server info must be known; without it only the unreachable page shows.
  beforeLoad: async ({ context, location }) => {
    if (location.pathname.startsWith('/errors/unreachable')) return;
    const info = await loadServerInfo(context.queryClient);
    if (!info) throw redirect({ to: '/errors/unreachable' });
  },
  component: RootLayout,
});

function RootLayout() {
  return (
    <div className="flex min-h-full flex-col">
      <main className="flex-1">
        <Outlet />
      </main>
      <Notifications />
    </div>
  );
}
