import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

export const Route = createFileRoute('/process/workers/$workerId')({
  staticData: { name: 'worker-details' },
  beforeLoad: requireAccess({ login: true, uuidParams: ['workerId'] }),
  component: () => <RoutePlaceholder name="worker-details" />,
});
