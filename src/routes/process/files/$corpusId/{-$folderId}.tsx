import { createFileRoute, notFound } from '@tanstack/react-router';
import { isUuid, requireAccess } from '@/app/guard';
import { corpusQuery } from '@/api/corpora';
import { elementQuery } from '@/api/elements';
import { ImportFilesPage } from '@/features/imports/ImportFilesPage';

export const Route = createFileRoute('/process/files/$corpusId/{-$folderId}')({
  staticData: { name: 'files-import' },
  beforeLoad: async (ctx) => {
    await requireAccess({ login: true, verified: true, uuidParams: ['corpusId'] })(ctx);
    // The folder is optional, but when given it is a UUID like every id parameter.
    if (ctx.params.folderId !== undefined && !isUuid(ctx.params.folderId)) throw notFound();
  },
  // Started, not awaited: the page reads 'Loading…' meanwhile and reports a failure itself.
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(corpusQuery(params.corpusId));
    if (params.folderId) void context.queryClient.prefetchQuery(elementQuery(params.folderId));
  },
  component: FilesImportRoute,
});

function FilesImportRoute() {
  const { corpusId, folderId } = Route.useParams();
  return <ImportFilesPage corpusId={corpusId} folderId={folderId ?? null} />;
}
