import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { groupProjectsQuery, groupQuery, type Group } from '@/api/groups';
import { GuardedButton } from '@/components/GuardedButton';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { PageMessage } from '@/components/PageMessage';
import { ui } from '@/components/styles';
import { DeleteGroupDialog } from './DeleteGroupDialog';
import { GroupMembersSection } from './GroupMembersSection';
import { RenameGroupForm } from './RenameGroupForm';
import { groupLevelLabel, projectRoleLabel } from './levels';

/**
 * The group-details screen (`/group/{groupId}`, enterprise): its name, its members and the
 * projects it is a member of. Its admins (and site admins) rename it, manage its members and
 * delete it; any member may leave it.
 */
export function GroupPage({ groupId }: { groupId: string }) {
  const group = useQuery(groupQuery(groupId));
  const offline = useNeedsNetwork();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (group.isPending) {
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading the group…
      </PageMessage>
    );
  }
  if (group.isError) {
    return (
      <PageMessage width="max-w-4xl">
        The group could not be loaded: {errorMessage(group.error)}
      </PageMessage>
    );
  }
  const data = group.data;
  const canManage = canManageGroup(data);
  return (
    <section aria-labelledby="group-heading" className="mx-auto max-w-4xl space-y-6 p-6">
      <header className="space-y-3">
        <Link to="/user/profile" className={`${ui.link} text-sm`}>
          ‹ Your groups
        </Link>
        {renaming ? (
          <RenameGroupForm group={data} onDone={() => setRenaming(false)} />
        ) : (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h1 id="group-heading" className="text-2xl font-semibold text-brand-900">
                {data.name}
              </h1>
              <p className="text-sm text-slate-600">
                {data.level === null ? 'You are not a member' : `You are ${roleText(data)}`} ·{' '}
                {data.members_count} {data.members_count === 1 ? 'member' : 'members'}
              </p>
            </div>
            {canManage && (
              <div className="flex gap-2">
                <GuardedButton
                  blocked={offline}
                  className={ui.secondaryButton}
                  onClick={() => setRenaming(true)}
                >
                  Rename
                </GuardedButton>
                <GuardedButton
                  blocked={offline}
                  className={ui.dangerButton}
                  onClick={() => setDeleting(true)}
                >
                  Delete group
                </GuardedButton>
              </div>
            )}
          </div>
        )}
        <OfflineNote action="change this group" />
      </header>
      <GroupMembersSection group={data} canManage={canManage} />
      <GroupProjectsSection groupId={data.id} />
      {deleting && (
        <DeleteGroupDialog
          group={data}
          onClose={() => setDeleting(false)}
          onDeleted={() => void navigate({ to: '/user/profile' })}
        />
      )}
    </section>
  );
}

/** Group admins manage it; a site admin who is not a member may too. */
function canManageGroup(group: Group): boolean {
  return group.level === null || group.level >= 100;
}

function roleText(group: Group): string {
  return `${groupLevelLabel(group.level) === 'Admin' ? 'an admin' : 'a member'} of this group`;
}

/** The projects the group gives its members a role on (those the caller can see). */
function GroupProjectsSection({ groupId }: { groupId: string }) {
  const projects = useQuery(groupProjectsQuery(groupId));
  return (
    <section aria-labelledby="group-projects-heading" className={`${ui.card} p-6`}>
      <h2 id="group-projects-heading" className="text-lg font-semibold text-slate-900">
        Projects
      </h2>
      {projects.isPending ? (
        <p className="mt-4 text-slate-600" role="status">
          Loading…
        </p>
      ) : projects.isError ? (
        <p className="mt-4 text-slate-600">The projects could not be loaded.</p>
      ) : projects.data.results.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">
          This group is not a member of any project yet. A project's admins add it on the project's
          settings.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100 text-sm">
          {projects.data.results.map((entry) => (
            <li key={entry.id} className="flex items-center justify-between gap-4 py-2">
              <Link
                to="/browse/$corpusId"
                params={{ corpusId: entry.corpus.id }}
                className={ui.link}
              >
                {entry.corpus.name}
              </Link>
              <span className="text-slate-600">{projectRoleLabel(entry.level)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
