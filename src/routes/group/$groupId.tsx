import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/group/$groupId')({
  staticData: { name: 'group-details' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true, uuidParams: ['groupId'] }),
  component: () => <RoutePlaceholder name="group-details" />,
});
