import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { notify, notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import {
  ADMIN_PAGE_SIZE,
  adminUsersQuery,
  useUpdateAdminUser,
  type AdminUser,
  type AdminUserChanges,
  type ListQuery,
} from './api';
import { SearchBox } from '@/components/SearchBox';
import { ListTable } from '@/components/ListTable';

export const CANNOT_UNADMIN_SELF = 'You cannot remove your own admin rights.';
export const CANNOT_DEACTIVATE_SELF = 'You cannot deactivate your own account.';

function nameOf(user: AdminUser): string {
  return user.display_name || user.email;
}

/** What each change tells once the server has made it. */
function doneText(user: AdminUser, changes: AdminUserChanges): string {
  const name = nameOf(user);
  if (changes.is_admin === true) return `${name} is now a site administrator.`;
  if (changes.is_admin === false) return `${name} is no longer a site administrator.`;
  if (changes.can_manage_workers === true) return `${name} can now publish workers.`;
  if (changes.can_manage_workers === false) return `${name} can no longer publish workers.`;
  if (changes.verified_email) return `The e-mail address of ${name} is now verified.`;
  if (changes.is_active === false) return `${name} has been deactivated.`;
  return `${name} has been reactivated.`;
}

/**
 * Every account: search by e-mail or name, admin right, the right to publish workers (and
 * archive their configurations), verified e-mail, (de)activation.
 */
export function UsersAdminPage({
  query,
  onQueryChange,
}: {
  query: ListQuery;
  onQueryChange: (query: ListQuery) => void;
}) {
  const users = useQuery(adminUsersQuery(query));
  const { data: me = null } = useQuery(currentUserQuery);
  const update = useUpdateAdminUser();
  const [toDeactivate, setToDeactivate] = useState<AdminUser | null>(null);
  useErrorNotification(users.error);

  const change = (user: AdminUser, changes: AdminUserChanges) =>
    update.mutate(
      { user, changes },
      {
        onSuccess: () => notify({ type: 'success', text: doneText(user, changes) }),
        onError: (error) => notifyError(error),
        onSettled: () => setToDeactivate(null),
      },
    );

  return (
    <section aria-labelledby="users-heading" className="space-y-4">
      <h2 id="users-heading" className="text-lg font-semibold text-slate-900">
        Users
      </h2>
      <OfflineNote action="change accounts" />
      <SearchBox
        label="Search by e-mail or name"
        value={query.search}
        onSearch={(search) => onQueryChange({ page: 1, search })}
      />
      {users.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : users.isError ? (
        <p className="text-slate-600">The users could not be loaded.</p>
      ) : users.data.count === 0 ? (
        <p className="text-slate-600">No user matches this search.</p>
      ) : (
        <>
          <ListTable caption="Users" columns={['Name', 'E-mail', 'Status']} last="Actions">
            {users.data.results.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isSelf={user.id === me?.id}
                pending={update.isPending && update.variables.user.id === user.id}
                onChange={(changes) => change(user, changes)}
                onDeactivate={() => setToDeactivate(user)}
              />
            ))}
          </ListTable>
          <PaginationBar
            count={users.data.count}
            page={query.page}
            pageSize={ADMIN_PAGE_SIZE}
            singular="user"
            label="Users pages"
            onPageChange={(page) => onQueryChange({ ...query, page })}
          />
        </>
      )}
      <ConfirmDialog
        open={toDeactivate !== null}
        title="Deactivate user"
        confirmLabel="Deactivate"
        pending={update.isPending}
        onConfirm={() => toDeactivate && change(toDeactivate, { is_active: false })}
        onClose={() => setToDeactivate(null)}
      >
        {toDeactivate && (
          <p>
            <strong className="font-semibold text-slate-900">{nameOf(toDeactivate)}</strong> (
            {toDeactivate.email}) will no longer be able to log in, and is logged out everywhere.
            Their projects and annotations are kept.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

function Badge({
  tone,
  children,
}: {
  tone: 'brand' | 'green' | 'amber' | 'red';
  children: string;
}) {
  const tones = {
    brand: 'bg-brand-50 text-brand-900',
    green: 'bg-emerald-50 text-emerald-800',
    amber: 'bg-amber-50 text-amber-900',
    red: 'bg-red-50 text-red-800',
  };
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>
      {children}
    </span>
  );
}

function UserRow({
  user,
  isSelf,
  pending,
  onChange,
  onDeactivate,
}: {
  user: AdminUser;
  isSelf: boolean;
  pending: boolean;
  onChange: (changes: AdminUserChanges) => void;
  onDeactivate: () => void;
}) {
  const offline = useNeedsNetwork();
  const busy = pending ? 'Saving…' : null;
  const name = nameOf(user);
  return (
    <tr className={user.is_active ? undefined : 'text-slate-400'}>
      <td className="py-2 pr-4 font-medium text-slate-900">
        {user.display_name}
        {isSelf && <span className="ml-1 text-slate-500">(you)</span>}
      </td>
      <td className="py-2 pr-4 text-slate-600">{user.email}</td>
      <td className="py-2 pr-4">
        <span className="flex flex-wrap gap-1">
          {user.is_admin && <Badge tone="brand">Admin</Badge>}
          {user.can_manage_workers && <Badge tone="brand">Worker manager</Badge>}
          {user.verified_email ? (
            <Badge tone="green">Verified</Badge>
          ) : (
            <Badge tone="amber">Unverified</Badge>
          )}
          {!user.is_active && <Badge tone="red">Deactivated</Badge>}
        </span>
      </td>
      <td className="py-2">
        <span className="flex flex-wrap justify-end gap-2">
          {user.is_admin ? (
            <GuardedButton
              className={ui.secondaryButton}
              aria-label={`Remove admin: ${name}`}
              blocked={offline ?? (isSelf ? CANNOT_UNADMIN_SELF : busy)}
              onClick={() => onChange({ is_admin: false })}
            >
              Remove admin
            </GuardedButton>
          ) : (
            <GuardedButton
              className={ui.secondaryButton}
              aria-label={`Make admin: ${name}`}
              blocked={offline ?? busy}
              onClick={() => onChange({ is_admin: true })}
            >
              Make admin
            </GuardedButton>
          )}
          {user.can_manage_workers ? (
            <GuardedButton
              className={ui.secondaryButton}
              aria-label={`Stop managing workers: ${name}`}
              blocked={offline ?? busy}
              onClick={() => onChange({ can_manage_workers: false })}
            >
              Stop managing workers
            </GuardedButton>
          ) : (
            <GuardedButton
              className={ui.secondaryButton}
              aria-label={`Let manage workers: ${name}`}
              blocked={offline ?? busy}
              onClick={() => onChange({ can_manage_workers: true })}
            >
              Let manage workers
            </GuardedButton>
          )}
          {!user.verified_email && (
            <GuardedButton
              className={ui.secondaryButton}
              aria-label={`Mark e-mail verified: ${name}`}
              blocked={offline ?? busy}
              onClick={() => onChange({ verified_email: true })}
            >
              Mark e-mail verified
            </GuardedButton>
          )}
          {user.is_active ? (
            <GuardedButton
              className={ui.dangerOutlineButton}
              aria-label={`Deactivate: ${name}`}
              blocked={offline ?? (isSelf ? CANNOT_DEACTIVATE_SELF : busy)}
              onClick={onDeactivate}
            >
              Deactivate
            </GuardedButton>
          ) : (
            <GuardedButton
              className={ui.secondaryButton}
              aria-label={`Reactivate: ${name}`}
              blocked={offline ?? busy}
              onClick={() => onChange({ is_active: true })}
            >
              Reactivate
            </GuardedButton>
          )}
        </span>
      </td>
    </tr>
  );
}
