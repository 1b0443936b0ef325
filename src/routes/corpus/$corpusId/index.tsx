import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProjectAllowedMetadata } from '@/features/admin/ProjectAllowedMetadata';
import { EditCorpusPage } from '@/features/corpora/EditCorpusPage';
import { loadCorpusSettings } from '@/features/corpora/loaders';

export const Route = createFileRoute('/corpus/$corpusId/')({
  staticData: { name: 'corpus-update' },
  // Called through a wrapper: passed bare, the guard's loose signature widens the params to unknown.
  beforeLoad: (ctx) =>
    requireAccess({ login: true, verified: true, uuidParams: ['corpusId'] })(ctx),
  loader: ({ context, params }) => loadCorpusSettings(context.queryClient, params.corpusId),
  component: CorpusUpdateRoute,
});

function CorpusUpdateRoute() {
  const { corpusId } = Route.useParams();
  return (
    <>
      <EditCorpusPage corpusId={corpusId} />
      <ProjectAllowedMetadata corpusId={corpusId} />
    </>
  );
}
