import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/browse/')({
  staticData: { name: 'corpus-list' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="corpus-list" />,
});
