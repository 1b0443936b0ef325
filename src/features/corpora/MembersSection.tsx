import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { fieldErrors, errorMessage } from '@/api/errors';
import { GROUP_PICKER_SIZE, groupListQuery } from '@/api/groups';
import { serverInfoQuery } from '@/api/serverInfo';
import { currentUserQuery } from '@/api/user';
import { isGroupMembership, type Corpus, type Membership } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { ConfirmDialog } from '@/components/modal/ConfirmDialog';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify, notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import {
  LEVEL_OPTIONS,
  MEMBERS_PAGE_SIZE,
  levelLabel,
  membershipsQuery,
  useAddGroup,
  useAddMember,
  useChangeMemberLevel,
  useRemoveMember,
  type Level,
} from './api';
import { ListTable } from '@/components/ListTable';

function memberName(membership: Membership): string {
  if (isGroupMembership(membership)) return membership.group.name;
  return membership.user.display_name || membership.user.email;
}

function isSelfMembership(membership: Membership, userId: string | undefined): boolean {
  return !isGroupMembership(membership) && membership.user.id === userId;
}

/**
 * A project's members, for its admins: add, change a role, remove. In the enterprise edition
 * a group may be a member too: each of its members then holds its role on the project.
 */
export function MembersSection({ corpus }: { corpus: Corpus }) {
  const [page, setPage] = useState(1);
  const members = useQuery(membershipsQuery(corpus.id, page));
  const { data: user = null } = useQuery(currentUserQuery);
  const enterprise = !!useQuery(serverInfoQuery).data?.features.enterprise;
  const [toRemove, setToRemove] = useState<Membership | null>(null);
  const removal = useRemoveMember(corpus.id);
  const navigate = useNavigate();
  useErrorNotification(members.error);

  const count = members.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / MEMBERS_PAGE_SIZE));
  // Removing the only member of the last page would leave an empty page behind.
  useEffect(() => {
    if (members.data && !members.isPlaceholderData && page > pages) setPage(pages);
  }, [members.data, members.isPlaceholderData, page, pages]);

  const remove = () => {
    if (!toRemove) return;
    const membership = toRemove;
    const isSelf = isSelfMembership(membership, user?.id);
    removal.mutate(
      { membership, isSelf },
      {
        onSuccess: () => {
          setToRemove(null);
          notify({
            type: 'success',
            text: isSelf
              ? `You have left the project "${corpus.name}".`
              : `${memberName(membership)} has been removed from the project.`,
          });
          if (isSelf) void navigate({ to: '/browse/' });
        },
        onError: (error) => {
          setToRemove(null);
          notifyError(error);
        },
      },
    );
  };

  return (
    <section aria-labelledby="members-heading" className={`${ui.card} p-6`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="members-heading" className="text-lg font-semibold text-slate-900">
          Members
        </h2>
        {members.data && (
          <p className="text-sm text-slate-500">
            {count} {count === 1 ? 'member' : 'members'}
          </p>
        )}
      </div>

      <AddMemberForm corpusId={corpus.id} />
      {enterprise && <AddGroupForm corpusId={corpus.id} />}

      {members.isPending ? (
        <p className="mt-6 text-slate-600" role="status">
          Loading…
        </p>
      ) : members.isError ? (
        <p className="mt-6 text-slate-600">The members could not be loaded.</p>
      ) : (
        <ListTable
          caption={`Members of ${corpus.name}`}
          columns={['Name', 'E-mail', 'Role']}
          last="Actions"
          className="mt-6"
        >
          {members.data.results.map((membership) => (
            <MemberRow
              key={membership.id}
              corpusId={corpus.id}
              membership={membership}
              isSelf={isSelfMembership(membership, user?.id)}
              onRemove={() => setToRemove(membership)}
            />
          ))}
        </ListTable>
      )}

      {count > MEMBERS_PAGE_SIZE && members.data && (
        <nav aria-label="Members pages" className="mt-4 flex items-center justify-between gap-2">
          <button
            type="button"
            className={ui.secondaryButton}
            disabled={!members.data.previous || page <= 1 || members.isPlaceholderData}
            onClick={() => setPage((current) => Math.max(1, current - 1))}
          >
            Previous
          </button>
          <p className="text-sm text-slate-600" aria-live="polite">
            Page {page} of {pages}
          </p>
          <button
            type="button"
            className={ui.secondaryButton}
            disabled={!members.data.next || members.isPlaceholderData}
            onClick={() => setPage((current) => current + 1)}
          >
            Next
          </button>
        </nav>
      )}

      <ConfirmDialog
        open={toRemove !== null}
        title="Remove member"
        confirmLabel="Remove"
        pending={removal.isPending}
        onConfirm={remove}
        onClose={() => setToRemove(null)}
      >
        {toRemove && (
          <p>
            {isSelfMembership(toRemove, user?.id) ? (
              <>
                Are you sure you want to leave the project{' '}
                <strong className="font-semibold text-slate-900">{corpus.name}</strong>? You will
                lose access to it unless it is public.
              </>
            ) : (
              <>
                Are you sure you want to remove {isGroupMembership(toRemove) && 'the group '}
                <strong className="font-semibold text-slate-900">{memberName(toRemove)}</strong>
                {!isGroupMembership(toRemove) && ` (${toRemove.user.email})`} from the project{' '}
                <strong className="font-semibold text-slate-900">{corpus.name}</strong>?
              </>
            )}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

function MemberRow({
  corpusId,
  membership,
  isSelf,
  onRemove,
}: {
  corpusId: string;
  membership: Membership;
  isSelf: boolean;
  onRemove: () => void;
}) {
  const change = useChangeMemberLevel(corpusId);
  const offline = useNeedsNetwork();
  const name = memberName(membership);
  // While the change is on its way the select shows the chosen role; a refusal puts it back.
  const level = change.isPending ? change.variables.level : membership.level;

  const onChange = (value: Level) => {
    change.mutate(
      { membership, level: value },
      {
        onSuccess: () =>
          notify({
            type: 'success',
            text: `${name} is now ${levelLabel(value).toLowerCase()} of the project.`,
          }),
        onError: (error) => notifyError(error),
      },
    );
  };

  return (
    <tr>
      {isGroupMembership(membership) ? (
        <>
          <td className="py-2 pr-4 font-medium text-slate-900">
            <Link
              to="/group/$groupId"
              params={{ groupId: membership.group.id }}
              className={ui.link}
            >
              {membership.group.name}
            </Link>
          </td>
          <td className="py-2 pr-4 text-slate-500">Group</td>
        </>
      ) : (
        <>
          <td className="py-2 pr-4 font-medium text-slate-900">
            {membership.user.display_name}
            {isSelf && <span className="ml-1 text-slate-500">(you)</span>}
          </td>
          <td className="py-2 pr-4 text-slate-600">{membership.user.email}</td>
        </>
      )}
      <td className="py-2 pr-4">
        <select
          aria-label={`Role of ${name}`}
          value={LEVEL_OPTIONS.some((option) => option.level === level) ? level : ''}
          disabled={change.isPending || !!offline}
          title={offline ?? undefined}
          onChange={(event) => onChange(Number(event.target.value) as Level)}
          className="rounded-md border border-slate-300 px-2 py-1 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        >
          {!LEVEL_OPTIONS.some((option) => option.level === level) && (
            <option value="" disabled>
              {levelLabel(level)} ({level})
            </option>
          )}
          {LEVEL_OPTIONS.map((option) => (
            <option key={option.level} value={option.level}>
              {option.label}
            </option>
          ))}
        </select>
      </td>
      <td className="py-2 text-right">
        <GuardedButton
          blocked={offline}
          className={ui.dangerOutlineButton}
          aria-label={`Remove ${name}`}
          onClick={onRemove}
        >
          Remove
        </GuardedButton>
      </td>
    </tr>
  );
}

function AddMemberForm({ corpusId }: { corpusId: string }) {
  const [email, setEmail] = useState('');
  const [level, setLevel] = useState<Level>(LEVEL_OPTIONS[0]!.level);
  const addition = useAddMember(corpusId);
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
        onSuccess: (membership) => {
          notify({
            type: 'success',
            text: `${memberName(membership)} has been added to the project as ${levelLabel(membership.level).toLowerCase()}.`,
          });
          setEmail('');
        },
        onError: (error) => notifyError(error),
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
            onChange={(event) => setLevel(Number(event.target.value) as Level)}
            aria-invalid={levelError ? true : undefined}
            className={ui.input}
          >
            {LEVEL_OPTIONS.map((option) => (
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

/** Enterprise edition: one of the caller's groups joins the project with a role. */
function AddGroupForm({ corpusId }: { corpusId: string }) {
  const groups = useQuery(groupListQuery(1, GROUP_PICKER_SIZE));
  const [groupId, setGroupId] = useState('');
  const [level, setLevel] = useState<Level>(LEVEL_OPTIONS[0]!.level);
  const addition = useAddGroup(corpusId);
  const offline = useNeedsNetwork();
  const id = useId();
  const errors = fieldErrors(addition.error);
  const groupError = errors.group_id?.join(' ');
  const formError = addition.error && !groupError ? errorMessage(addition.error) : null;
  const choices = groups.data?.results ?? [];
  const chosen = choices.some((group) => group.id === groupId) ? groupId : '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || addition.isPending || offline) return;
    addition.mutate(
      { groupId: chosen, level },
      {
        onSuccess: (membership) => {
          notify({
            type: 'success',
            text: `The group ${memberName(membership)} has been added to the project as ${levelLabel(membership.level).toLowerCase()}.`,
          });
          setGroupId('');
        },
        onError: (error) => notifyError(error),
      },
    );
  };

  if (groups.isSuccess && choices.length === 0) {
    return (
      <p className="mt-4 text-sm text-slate-600">
        To add a group, first create one on{' '}
        <Link to="/user/profile" className={ui.link}>
          your profile
        </Link>
        .
      </p>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="mt-4" aria-label="Add a group">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <label htmlFor={`${id}-group`} className={ui.label}>
            Group
          </label>
          <select
            id={`${id}-group`}
            value={chosen}
            onChange={(event) => {
              setGroupId(event.target.value);
              if (addition.error) addition.reset();
            }}
            aria-invalid={groupError ? true : undefined}
            className={ui.input}
          >
            <option value="">{groups.isPending ? 'Loading…' : 'Choose a group'}</option>
            {choices.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-group-level`} className={ui.label}>
            Role
          </label>
          <select
            id={`${id}-group-level`}
            value={level}
            onChange={(event) => setLevel(Number(event.target.value) as Level)}
            className={ui.input}
          >
            {LEVEL_OPTIONS.map((option) => (
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
          disabled={!chosen || addition.isPending}
        >
          {addition.isPending ? 'Adding…' : 'Add group'}
        </GuardedButton>
      </div>
      {groupError && <p className={ui.fieldError}>{groupError}</p>}
      {formError && <p className={ui.fieldError}>{formError}</p>}
    </form>
  );
}
