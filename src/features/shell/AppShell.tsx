import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Notifications } from '@/components/notifications/Notifications';
import { localDb } from '@/offline/db';
import { warnBeforeLeaving } from '@/offline/leaveWarning';
import { PageBanners, UnverifiedBanner } from './Banners';
import { Footer } from './Footer';
import { keyboardHelpOpen, useKeyboardHelpShortcut } from './keyboardHelp';
import { Navbar, type NavbarProps } from './Navbar';
import { OfflineNotice } from './OfflineNotice';
import { UpdatePrompt, type UpdatePromptProps } from './UpdatePrompt';
import { useShellAccess } from './useShellAccess';
import { useStore } from '@/lib/store';

// Dialogs load when first opened: their code (and the dialog library's) is not needed to show a page.
const KeyboardHelpDialog = lazy(() =>
  import('./KeyboardHelpDialog').then((module) => ({ default: module.KeyboardHelpDialog })),
);

export interface AppShellProps extends NavbarProps {
  update: UpdatePromptProps;
  children: ReactNode;
}

/** Everything around a page: navbar, banners, footer and the app-wide overlays. */
export function AppShell({
  update,
  children,
  jobs,
  selection,
  onOpenPendingChanges,
}: AppShellProps) {
  const { info, user, access } = useShellAccess();
  // Closing the tab with edits not on the server asks first.
  useEffect(() => warnBeforeLeaving(localDb), []);
  return (
    <div className="flex min-h-full flex-col bg-white">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-sm text-brand-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {/* What the user must not miss stays in view while the page scrolls. */}
      <header data-keep-clear className="sticky top-0 z-30">
        <Navbar jobs={jobs} selection={selection} onOpenPendingChanges={onOpenPendingChanges} />
        <OfflineNotice />
        {access.loggedIn && !access.verified && <UnverifiedBanner />}
      </header>
      <PageBanners
        access={access}
        banner={info?.banner}
        hasUsablePassword={user?.has_usable_password ?? true}
      />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer info={info} />
      <KeyboardHelp />
      <UpdatePrompt {...update} />
      <Notifications />
    </div>
  );
}

/** `?` opens the shortcuts from the first render on; the dialog's code loads then. */
function KeyboardHelp() {
  useKeyboardHelpShortcut();
  const open = useStore(keyboardHelpOpen);
  return (
    open && (
      <Suspense fallback={null}>
        <KeyboardHelpDialog />
      </Suspense>
    )
  );
}
