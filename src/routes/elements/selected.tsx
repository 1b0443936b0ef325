import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/elements/selected')({
  staticData: { name: 'elements-selected' },
  beforeLoad: requireAccess({ feature: 'selection', login: true, verified: true }),
  component: () => <RoutePlaceholder name="elements-selected" />,
});
