import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/')({
  staticData: { name: 'home' },
  beforeLoad: requireAccess({}),
  component: () => <RoutePlaceholder name="home" />,
});
