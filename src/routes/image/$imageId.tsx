import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/image/$imageId')({
  staticData: { name: 'image-elements' },
  beforeLoad: requireAccess({ login: true, verified: true, uuidParams: ['imageId'] }),
  component: () => <RoutePlaceholder name="image-elements" />,
});
