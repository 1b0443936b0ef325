import { useCallback } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { WaitPage } from '@/features/processes/WaitPage';
import { findCorpus } from '@/features/processes/waitFinders';

export const Route = createFileRoute('/corpus/$corpusId/wait')({
  staticData: { name: 'corpus-wait' },
  beforeLoad: (ctx) =>
    requireAccess({ feature: 'enterprise', login: true, uuidParams: ['corpusId'] })(ctx),
  component: CorpusWaitRoute,
});

function CorpusWaitRoute() {
  const { corpusId } = Route.useParams();
  const find = useCallback(() => findCorpus(corpusId), [corpusId]);
  return <WaitPage what="project" find={find} />;
}
