import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/corpus/new')({
  staticData: { name: 'corpus-create' },
  beforeLoad: requireAccess({ login: true, verified: true }),
  component: () => <RoutePlaceholder name="corpus-create" />,
});
