import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/')({
  staticData: { name: 'processes-list' },
  beforeLoad: requireAccess({ login: true }),
  component: () => <RoutePlaceholder name="processes-list" />,
});
