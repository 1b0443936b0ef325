import { useCallback } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { WaitPage } from '@/features/processes/WaitPage';
import { findProcess } from '@/features/processes/waitFinders';

export const Route = createFileRoute('/process/$id/wait')({
  staticData: { name: 'process-wait' },
  beforeLoad: (ctx) =>
    requireAccess({ feature: 'enterprise', login: true, uuidParams: ['id'] })(ctx),
  component: ProcessWaitRoute,
});

function ProcessWaitRoute() {
  const { id } = Route.useParams();
  const find = useCallback(() => findProcess(id), [id]);
  return <WaitPage what="process" find={find} />;
}
