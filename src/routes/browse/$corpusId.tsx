import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/browse/$corpusId')({
  staticData: { name: 'navigation' },
  beforeLoad: requireAccess({ uuidParams: ['corpusId'] }),
  component: () => <RoutePlaceholder name="navigation" />,
});
