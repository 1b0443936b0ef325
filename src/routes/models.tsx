import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/models')({
  staticData: { name: 'models-list' },
  beforeLoad: requireAccess({ login: true }),
  component: () => <RoutePlaceholder name="models-list" />,
});
