import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { errorMessage, fieldErrors } from '@/api/errors';
import { GROUPS_PAGE_SIZE, GROUP_NAME_MAX_LENGTH, groupListQuery } from '@/api/groups';
import { serverInfoQuery } from '@/api/serverInfo';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { useCreateGroup } from './api';
import { groupLevelLabel } from './levels';

/**
 * The profile's "Groups" section (enterprise edition): the groups the user is in, each a link
 * to its page, and a form to create one (its creator becomes its admin).
 */
export function ProfileGroupsSection() {
  const enterprise = !!useQuery(serverInfoQuery).data?.features.enterprise;
  if (!enterprise) return null;
  return (
    <section
      aria-labelledby="profile-groups"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="profile-groups" className="mb-4 text-base font-semibold text-slate-800">
        Groups
      </h2>
      <GroupList />
      <CreateGroupForm />
    </section>
  );
}

function GroupList() {
  const [page, setPage] = useState(1);
  const groups = useQuery(groupListQuery(page));
  if (groups.isPending) {
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading your groups…
      </p>
    );
  }
  if (groups.isError) {
    return (
      <p className="text-sm text-slate-600">
        Your groups could not be loaded: {errorMessage(groups.error)}
      </p>
    );
  }
  const { count, results } = groups.data;
  if (count === 0) {
    return <p className="text-sm text-slate-600">You are not a member of any group.</p>;
  }
  return (
    <>
      <ul aria-label="Your groups" className="divide-y divide-slate-100 text-sm">
        {results.map((group) => (
          <li key={group.id} className="flex items-center justify-between gap-4 py-2">
            <Link to="/group/$groupId" params={{ groupId: group.id }} className={ui.link}>
              {group.name}
            </Link>
            <span className="text-slate-600">
              {group.level === null ? '' : `${groupLevelLabel(group.level)} · `}
              {group.members_count} {group.members_count === 1 ? 'member' : 'members'}
            </span>
          </li>
        ))}
      </ul>
      {count > GROUPS_PAGE_SIZE && (
        <div className="mt-3">
          <PaginationBar
            count={count}
            page={page}
            pageSize={GROUPS_PAGE_SIZE}
            singular="group"
            label="Groups pages"
            onPageChange={setPage}
          />
        </div>
      )}
    </>
  );
}

function CreateGroupForm() {
  const [name, setName] = useState('');
  const creation = useCreateGroup();
  const offline = useNeedsNetwork();
  const navigate = useNavigate();
  const id = useId();
  const trimmed = name.trim();
  const nameError = fieldErrors(creation.error).name?.join(' ');
  const formError = creation.error && !nameError ? errorMessage(creation.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || creation.isPending || offline) return;
    creation.mutate(
      { name: trimmed },
      {
        onSuccess: (group) => {
          notify({ type: 'success', text: `The group ${group.name} was created.` });
          setName('');
          void navigate({ to: '/group/$groupId', params: { groupId: group.id } });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create a group" className="mt-4 space-y-1">
      <label htmlFor={`${id}-name`} className={ui.label}>
        New group name
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={`${id}-name`}
          value={name}
          maxLength={GROUP_NAME_MAX_LENGTH}
          onChange={(event) => {
            setName(event.target.value);
            if (creation.error) creation.reset();
          }}
          aria-invalid={nameError ? true : undefined}
          className={`${ui.input} max-w-md`}
          autoComplete="off"
        />
        <GuardedButton
          type="submit"
          blocked={offline}
          className={ui.primaryButton}
          disabled={!trimmed || creation.isPending}
        >
          {creation.isPending ? 'Creating…' : 'Create group'}
        </GuardedButton>
      </div>
      {nameError && <p className={ui.fieldError}>{nameError}</p>}
      {formError && <p className={ui.fieldError}>{formError}</p>}
    </form>
  );
}
