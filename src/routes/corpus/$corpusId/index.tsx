import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/corpus/$corpusId/')({
  staticData: { name: 'corpus-update' },
  beforeLoad: requireAccess({ login: true, verified: true, uuidParams: ['corpusId'] }),
  component: () => <RoutePlaceholder name="corpus-update" />,
});
