import { Outlet, createRootRouteWithContext, redirect } from '@tanstack/react-router';
import { loadServerInfo, type RouterContext } from '@/app/guard';
import { applyUpdate, updateAvailable } from '@/app/serviceWorker';
import { useStore } from '@/lib/store';
import { AppShell } from '@/features/shell/AppShell';

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
  const available = useStore(updateAvailable);
  return (
    <AppShell
      update={{
        available,
        onReload: () => void applyUpdate(),
        onLater: () => updateAvailable.set(false),
      }}
    >
      <Outlet />
    </AppShell>
  );
}
