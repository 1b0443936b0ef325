import { Link, useNavigate } from '@tanstack/react-router';
import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import type { User } from '@/api/types';
import type { ShellAccess } from './access';
import { JobsCounter, type JobsSummary } from './JobsCounter';
import { SelectionCounter, type SelectionSummary } from './SelectionCounter';
import { openKeyboardHelp } from './keyboardHelp';
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
          {user && <UserMenu user={user} access={access} />}
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

const menuItem =
  'block w-full px-4 py-2 text-left text-sm text-slate-700 data-[focus]:bg-brand-50 data-[focus]:text-brand-900';

function UserMenu({ user, access }: { user: User; access: ShellAccess }) {
  return (
    <Menu>
      <MenuButton className="flex items-center gap-1 rounded px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-600 data-[open]:bg-brand-600">
        {user.display_name || user.email}
        <span aria-hidden="true" className="text-xs">
          ▾
        </span>
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-40 mt-1 w-52 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none"
      >
        <MenuItem>
          <Link to="/user/profile" className={menuItem}>
            Profile
          </Link>
        </MenuItem>
        <MenuItem>
          <Link to="/process/workers/" className={menuItem}>
            Workers
          </Link>
        </MenuItem>
        <MenuItem>
          <Link to="/process/worker-runs" className={menuItem}>
            Worker runs
          </Link>
        </MenuItem>
        <MenuItem>
          <Link to="/models" className={menuItem}>
            Models
          </Link>
        </MenuItem>
        {access.enterprise && (
          <MenuItem>
            <Link to="/budget/" className={menuItem}>
              Budgets
            </Link>
          </MenuItem>
        )}
        {access.enterprise && (
          <MenuItem>
            <Link to="/secret/" className={menuItem}>
              Secrets
            </Link>
          </MenuItem>
        )}
        {access.admin && (
          <MenuItem>
            <Link to="/admin/" className={menuItem}>
              Admin
            </Link>
          </MenuItem>
        )}
        <MenuSeparator className="my-1 h-px bg-slate-200" />
        <MenuItem>
          <button type="button" onClick={openKeyboardHelp} className={menuItem}>
            Keyboard shortcuts
          </button>
        </MenuItem>
        <MenuItem>
          <Link to="/user/logout" className={menuItem}>
            Log out
          </Link>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}
