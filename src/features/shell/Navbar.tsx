import { lazy, Suspense } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import type { User } from '@/api/types';
import { USER_MENU_BUTTON } from './userMenuButton';
import { JobsCounter, type JobsSummary } from './JobsCounter';
import { SelectionCounter, type SelectionSummary } from './SelectionCounter';
import { useLoginSearch } from './loginNext';
import { useShellAccess } from './useShellAccess';
import { useOnline } from './useOnline';
import { localDb } from '@/offline/db';
import { EMPTY_STATUS, readOutboxStatus } from '@/offline/outboxStatus';
import { useLiveQuery } from '@/offline/useLiveQuery';
import { relativeTime } from '@/lib/relativeTime';

export interface NavbarProps {
  /** Supplied by the jobs feature; no jobs until then. */
  jobs?: JobsSummary;
  /** Supplied by the selection feature; an empty selection until then. */
  selection?: SelectionSummary;
  /** Opens the Pending changes panel over the page; without it, the sync status goes to /sync. */
  onOpenPendingChanges?: () => void;
}

// The menu library loads right after the first render, not before it.
const UserMenu = lazy(() => import('./UserMenu').then((module) => ({ default: module.UserMenu })));

const NO_JOBS: JobsSummary = { count: 0 };
const EMPTY_SELECTION: SelectionSummary = { count: 0, loading: false };

const navLink =
  'rounded px-3 py-1.5 text-sm font-medium text-brand-50 hover:bg-brand-600 hover:text-white data-[status=active]:bg-brand-900/40 data-[status=active]:text-white';

export function Navbar({
  jobs = NO_JOBS,
  selection = EMPTY_SELECTION,
  onOpenPendingChanges,
}: NavbarProps) {
  const { user, access } = useShellAccess();

  return (
    // On touch screens every control is at least 44 px square, a finger's width; a mouse keeps
    // the compact bar.
    <nav
      aria-label="Main"
      className="bg-brand-700 text-white shadow pointer-coarse:[&_:is(a,button)]:inline-flex pointer-coarse:[&_:is(a,button)]:min-h-11 pointer-coarse:[&_:is(a,button)]:min-w-11 pointer-coarse:[&_:is(a,button)]:items-center"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 gap-y-1 px-4 py-2">
        <Link to="/" className="mr-3 flex items-center gap-2 text-lg font-semibold tracking-tight">
          <img src="/favicon.svg" alt="" className="size-6" />
          Folia
        </Link>
        <Link to="/browse/" className={navLink}>
          Projects
        </Link>
        {access.process && (
          <Link to="/process/" className={navLink}>
            Process
          </Link>
        )}
        {access.search && (
          <Link to="/search/{-$corpusId}" params={{}} className={navLink}>
            Search
          </Link>
        )}
        <div className="ml-auto flex items-center gap-2">
          <OnlineIndicator onOpen={onOpenPendingChanges} />
          {access.jobs && <JobsCounter {...jobs} />}
          {access.selection && <SelectionCounter {...selection} />}
          {user && (
            <Suspense fallback={<UserMenuStandIn user={user} />}>
              <UserMenu user={user} access={access} />
            </Suspense>
          )}
          {access.anonymous && <AnonymousButtons register={access.register} />}
        </div>
      </div>
    </nav>
  );
}

/** Connectivity, edits waiting for the server and the last sync; opens the Pending changes. */
function OnlineIndicator({ onOpen }: { onOpen?: () => void }) {
  const online = useOnline();
  const navigate = useNavigate();
  const status = useLiveQuery(() => readOutboxStatus(localDb), [], EMPTY_STATUS);
  const waiting = status.pending + status.failed + status.conflicts;
  const lastSync = status.lastSync
    ? `Last synced ${relativeTime(new Date(status.lastSync).toISOString())}`
    : 'Not synced from this browser yet';
  const state = `${online ? 'Online' : 'Offline'}${waiting > 0 ? `, ${waiting} pending` : ''}`;
  return (
    <button
      type="button"
      title={lastSync}
      aria-label={`Pending changes: ${state}`}
      aria-haspopup={onOpen ? 'dialog' : undefined}
      onClick={() => (onOpen ? onOpen() : void navigate({ to: '/sync' }))}
      className={`flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white ${
        online
          ? 'bg-brand-600 text-brand-50 hover:bg-brand-500'
          : 'bg-amber-100 text-amber-900 hover:bg-amber-50'
      }`}
    >
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${online ? 'bg-emerald-400' : 'bg-amber-500'}`}
      />
      {online ? 'Online' : 'Offline'}
      {waiting > 0 && (
        <span
          className={`rounded-full px-1.5 ${
            status.failed + status.conflicts > 0
              ? 'bg-red-600 text-white'
              : online
                ? 'bg-brand-800 text-brand-50'
                : 'bg-amber-200 text-amber-950'
          }`}
        >
          {waiting} pending
        </span>
      )}
    </button>
  );
}

function AnonymousButtons({ register }: { register: boolean }) {
  const search = useLoginSearch();
  return (
    <>
      <Link
        to="/user/login"
        search={search}
        className="rounded px-3 py-1.5 text-sm font-medium text-white ring-1 ring-brand-100/60 hover:bg-brand-600"
      >
        Log in
      </Link>
      {register && (
        <Link
          to="/user/register"
          search={search}
          className="rounded bg-white px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
        >
          Register
        </Link>
      )}
    </>
  );
}

/** What the menu button shows while its code arrives: the same name, not yet a button. */
function UserMenuStandIn({ user }: { user: User }) {
  return (
    // As tall as the button on touch screens (the bar sizes its links and buttons so): no shift.
    <span className={`${USER_MENU_BUTTON} pointer-coarse:min-h-11 pointer-coarse:min-w-11`}>
      {user.display_name || user.email}
      <span aria-hidden="true" className="text-xs">
        ▾
      </span>
    </span>
  );
}
