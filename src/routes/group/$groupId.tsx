import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { GroupPage } from '@/features/groups/GroupPage';

export const Route = createFileRoute('/group/$groupId')({
  staticData: { name: 'group-details' },
  beforeLoad: (ctx) =>
    requireAccess({ feature: 'enterprise', login: true, uuidParams: ['groupId'] })(ctx),
  component: GroupRoute,
});

function GroupRoute() {
  const { groupId } = Route.useParams();
  // A new key per group: one group's edits in progress never show on another's page.
  return <GroupPage key={groupId} groupId={groupId} />;
}
