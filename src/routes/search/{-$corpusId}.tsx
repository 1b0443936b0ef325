import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/search/{-$corpusId}')({
  staticData: { name: 'search' },
  beforeLoad: requireAccess({ feature: 'search' }),
  component: () => <RoutePlaceholder name="search" />,
});
