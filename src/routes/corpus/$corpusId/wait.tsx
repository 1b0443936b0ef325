import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/corpus/$corpusId/wait')({
  staticData: { name: 'corpus-wait' },
  beforeLoad: requireAccess({ feature: 'enterprise', login: true, uuidParams: ['corpusId'] }),
  component: () => <RoutePlaceholder name="corpus-wait" />,
});
