import { useState } from 'react';
import {
  Outlet,
  createRootRouteWithContext,
  redirect,
  useRouterState,
} from '@tanstack/react-router';
import { loadServerInfo, loadUser, type RouterContext } from '@/app/guard';
import { ScreenTitle } from '@/app/ScreenTitle';
import { applyUpdate, updateAvailable } from '@/app/serviceWorker';
import { useStore } from '@/lib/store';
import { AppShell } from '@/features/shell/AppShell';
import { useShellAccess } from '@/features/shell/useShellAccess';
import { JobsModal } from '@/features/jobs/JobsModal';
import { useBackgroundJobs } from '@/features/jobs/useBackgroundJobs';
import { PendingChangesDialog } from '@/features/sync/PendingChangesDialog';
import { useSelectionSummary } from '@/features/selection/useSelectionSummary';

export const Route = createRootRouteWithContext<RouterContext>()({
  // On every navigation the server info must be known; without it only the unreachable page shows.
  beforeLoad: async ({ context, location }) => {
    if (location.pathname.startsWith('/errors/unreachable')) return;
    // Who the user is is asked alongside, not once the server info has come: the pages' guards
    // then find it there (or on its way), one round trip sooner. It never fails (null instead).
    void loadUser(context.queryClient);
    const info = await loadServerInfo(context.queryClient);
    if (!info) throw redirect({ to: '/errors/unreachable' });
  },
  component: RootLayout,
});

function RootLayout() {
  const available = useStore(updateAvailable);
  const [pendingOpen, setPendingOpen] = useState(false);
  const onSyncPage = useRouterState({ select: (state) => state.location.pathname === '/sync' });
  const [jobsOpen, setJobsOpen] = useState(false);
  const jobs = useBackgroundJobs(useShellAccess().access.jobs);
  return (
    <AppShell
      selection={useSelectionSummary()}
      jobs={{ ...jobs, onOpen: () => setJobsOpen(true) }}
      update={{
        available,
        onReload: () => void applyUpdate(),
        onLater: () => updateAvailable.set(false),
      }}
      // On /sync the panel is the page already.
      onOpenPendingChanges={onSyncPage ? undefined : () => setPendingOpen(true)}
    >
      <ScreenTitle />
      <Outlet />
      <PendingChangesDialog open={pendingOpen} onClose={() => setPendingOpen(false)} />
      {jobsOpen && <JobsModal onClose={() => setJobsOpen(false)} />}
    </AppShell>
  );
}
