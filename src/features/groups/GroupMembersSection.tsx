import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { errorMessage, fieldErrors } from '@/api/errors';
import {
  GROUPS_PAGE_SIZE,
  groupMembersQuery,
  type Group,
  type GroupLevel,
  type GroupMember,
} from '@/api/groups';
import { currentUserQuery } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { ListTable } from '@/components/ListTable';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { notify, notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useAddGroupMember, useChangeGroupMemberLevel, useRemoveGroupMember } from './api';
import { GROUP_LEVEL_OPTIONS, groupLevelLabel } from './levels';

function memberName(member: GroupMember): string {
  return member.user.display_name || member.user.email;
}

/** A group's members: its admins add, change and remove them; anyone may leave. */
export function GroupMembersSection({ group, canManage }: { group: Group; canManage: boolean }) {
  const [page, setPage] = useState(1);
  const members = useQuery(groupMembersQuery(group.id, page));
  const { data: user = null } = useQuery(currentUserQuery);
  const [toRemove, setToRemove] = useState<GroupMember | null>(null);
  const removal = useRemoveGroupMember(group.id);
  const navigate = useNavigate();
  useErrorNotification(members.error);

  const count = members.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / GROUPS_PAGE_SIZE));
  // Removing the only member of the last page would leave an empty page behind.
  useEffect(() => {
    if (members.data && !members.isPlaceholderData && page > pages) setPage(pages);
  }, [members.data, members.isPlaceholderData, page, pages]);

  const remove = () => {
    if (!toRemove) return;
    const member = toRemove;
    const isSelf = member.user.id === user?.id;
    removal.mutate(
      { member, isSelf },
      {
        onSuccess: () => {
          setToRemove(null);
          notify({
            type: 'success',
            text: isSelf
              ? `You have left the group ${group.name}.`
              : `${memberName(member)} has been removed from the group.`,
          });
          if (isSelf) void navigate({ to: '/user/profile' });
        },
        onError: (error) => {
          setToRemove(null);
          notifyError(error);
        },
      },
    );
  };

  return (
    <section aria-labelledby="group-members-heading" className={`${ui.card} p-6`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="group-members-heading" className="text-lg font-semibold text-slate-900">
          Members
        </h2>
        {members.data && (
          <p className="text-sm text-slate-500">
            {count} {count === 1 ? 'member' : 'members'}
          </p>
        )}
      </div>

      {canManage && <AddGroupMemberForm groupId={group.id} />}

      {members.isPending ? (
        <p className="mt-6 text-slate-600" role="status">
          Loading…
        </p>
      ) : members.isError ? (
        <p className="mt-6 text-slate-600">The members could not be loaded.</p>
      ) : (
        <ListTable
          caption={`Members of ${group.name}`}
          columns={['Name', 'E-mail', 'Role']}
          last="Actions"
          className="mt-6"
        >
          {members.data.results.map((member) => (
            <GroupMemberRow
              key={member.id}
              groupId={group.id}
              member={member}
              canManage={canManage}
              isSelf={member.user.id === user?.id}
              onRemove={() => setToRemove(member)}
            />
          ))}
        </ListTable>
      )}

      {count > GROUPS_PAGE_SIZE && (
        <div className="mt-4">
          <PaginationBar
            count={count}
            page={page}
            pageSize={GROUPS_PAGE_SIZE}
            singular="member"
            label="Members pages"
            onPageChange={setPage}
          />
        </div>
      )}

      <ConfirmDialog
        open={toRemove !== null}
        title={toRemove?.user.id === user?.id ? 'Leave the group' : 'Remove member'}
        confirmLabel={toRemove?.user.id === user?.id ? 'Leave' : 'Remove'}
        pending={removal.isPending}
        onConfirm={remove}
        onClose={() => setToRemove(null)}
      >
        {toRemove && (
          <p>
            {toRemove.user.id === user?.id ? (
              <>
                Are you sure you want to leave the group{' '}
                <strong className="font-semibold text-slate-900">{group.name}</strong>? You will
                lose the roles it gives you on projects.
              </>
            ) : (
              <>
                Are you sure you want to remove{' '}
                <strong className="font-semibold text-slate-900">{memberName(toRemove)}</strong> (
                {toRemove.user.email}) from the group{' '}
                <strong className="font-semibold text-slate-900">{group.name}</strong>?
              </>
            )}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

function GroupMemberRow({
  groupId,
  member,
  canManage,
  isSelf,
  onRemove,
}: {
  groupId: string;
  member: GroupMember;
  canManage: boolean;
  isSelf: boolean;
  onRemove: () => void;
}) {
  const change = useChangeGroupMemberLevel(groupId);
  const offline = useNeedsNetwork();
  const name = memberName(member);
  // While the change is on its way the select shows the chosen role; a refusal puts it back.
  const level = change.isPending ? change.variables.level : member.level;

  const onChange = (value: GroupLevel) => {
    change.mutate(
      { member, level: value },
      {
        onSuccess: () =>
          notify({
            type: 'success',
            text: `${name} is now ${groupLevelLabel(value).toLowerCase()} of the group.`,
          }),
        onError: (error) => notifyError(error),
      },
    );
  };

  return (
    <tr>
      <td className="py-2 pr-4 font-medium text-slate-900">
        {member.user.display_name}
        {isSelf && <span className="ml-1 text-slate-500">(you)</span>}
      </td>
      <td className="py-2 pr-4 text-slate-600">{member.user.email}</td>
      <td className="py-2 pr-4">
        {canManage ? (
          <select
            aria-label={`Role of ${name}`}
            value={level}
            disabled={change.isPending || !!offline}
            title={offline ?? undefined}
            onChange={(event) => onChange(Number(event.target.value) as GroupLevel)}
            className="rounded-md border border-slate-300 px-2 py-1 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
          >
            {GROUP_LEVEL_OPTIONS.map((option) => (
              <option key={option.level} value={option.level}>
                {option.label}
              </option>
            ))}
          </select>
        ) : (
          <span className="text-slate-700">{groupLevelLabel(member.level)}</span>
        )}
      </td>
      <td className="py-2 text-right">
        {(canManage || isSelf) && (
          <GuardedButton
            blocked={offline}
            className={ui.dangerOutlineButton}
            aria-label={isSelf ? 'Leave the group' : `Remove ${name}`}
            onClick={onRemove}
          >
            {isSelf ? 'Leave' : 'Remove'}
          </GuardedButton>
        )}
      </td>
    </tr>
  );
}

function AddGroupMemberForm({ groupId }: { groupId: string }) {
  const [email, setEmail] = useState('');
  const [level, setLevel] = useState<GroupLevel>(GROUP_LEVEL_OPTIONS[0]!.level);
  const addition = useAddGroupMember(groupId);
  const offline = useNeedsNetwork();
  const id = useId();
  const errors = fieldErrors(addition.error);
  const emailError = errors.user_email?.join(' ');
  const levelError = errors.level?.join(' ');
  const formError =
    addition.error && !emailError && !levelError ? errorMessage(addition.error) : null;
  const trimmed = email.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || addition.isPending || offline) return;
    addition.mutate(
      { email: trimmed, level },
      {
        onSuccess: (member) => {
          notify({
            type: 'success',
            text: `${memberName(member)} has been added to the group as ${groupLevelLabel(member.level).toLowerCase()}.`,
          });
          setEmail('');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="mt-4" aria-label="Add a member">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <label htmlFor={`${id}-email`} className={ui.label}>
            E-mail address
          </label>
          <input
            id={`${id}-email`}
            type="email"
            required
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              if (addition.error) addition.reset();
            }}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${id}-email-error` : undefined}
            className={ui.input}
            autoComplete="off"
          />
        </div>
        <div>
          <label htmlFor={`${id}-level`} className={ui.label}>
            Role
          </label>
          <select
            id={`${id}-level`}
            value={level}
            onChange={(event) => setLevel(Number(event.target.value) as GroupLevel)}
            className={ui.input}
          >
            {GROUP_LEVEL_OPTIONS.map((option) => (
              <option key={option.level} value={option.level}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <GuardedButton
          type="submit"
          blocked={offline}
          className={ui.primaryButton}
          disabled={!trimmed || addition.isPending}
        >
          {addition.isPending ? 'Adding…' : 'Add member'}
        </GuardedButton>
      </div>
      {emailError && (
        <p id={`${id}-email-error`} className={ui.fieldError}>
          {emailError}
        </p>
      )}
      {levelError && <p className={ui.fieldError}>{levelError}</p>}
      {formError && <p className={ui.fieldError}>{formError}</p>}
    </form>
  );
}
