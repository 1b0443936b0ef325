import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/element/$id')({
  staticData: { name: 'element-details' },
  beforeLoad: requireAccess({ uuidParams: ['id'] }),
  component: () => <RoutePlaceholder name="element-details" />,
});
