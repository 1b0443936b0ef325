import { createFileRoute, redirect } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import {
  isEmptySearch,
  parseNavigationQuery,
  toListQuery,
  topLevelSearch,
  validateNavigationSearch,
} from '@/lib/navigationQuery';
import { loadNavigationCorpus } from '@/features/navigation/loaders';
import { NavigationPage } from '@/features/navigation/NavigationPage';
import { WorkerResultsAction } from '@/features/workers/results/WorkerResultsAction';
import { CreateProcessButton } from '@/features/processes/create/CreateProcessButton';
import { PopulateAction } from '@/features/datasets/populate/PopulateAction';
import { DatasetsMenu } from '@/features/datasets/DatasetsMenuSection';

export const Route = createFileRoute('/browse/$corpusId')({
  staticData: { name: 'navigation' },
  validateSearch: (search: Record<string, unknown>) => validateNavigationSearch(search),
  beforeLoad: async (ctx) => {
    await requireAccess({ uuidParams: ['corpusId'] })(ctx);
    // The redirect of an empty query needs the project's top-level type, so it waits for it.
    if (isEmptySearch(ctx.search)) {
      const corpus = await loadNavigationCorpus(ctx.context.queryClient, ctx.params.corpusId);
      throw redirect({
        to: '/browse/$corpusId',
        params: { corpusId: corpus.id },
        search: topLevelSearch(corpus.top_level_type),
        replace: true,
      });
    }
  },
  loader: async ({ context, params }) => {
    await loadNavigationCorpus(context.queryClient, params.corpusId);
  },
  component: NavigationRoute,
});

function NavigationRoute() {
  const { corpusId } = Route.useParams();
  const search = Route.useSearch();
  return (
    <NavigationPage
      corpusId={corpusId}
      search={search}
      actions={
        <>
          <DatasetsMenu corpusId={corpusId} />
          <PopulateAction corpusId={corpusId} filters={toListQuery(parseNavigationQuery(search))} />
          <CreateProcessButton corpusId={corpusId} />
          <WorkerResultsAction corpusId={corpusId} />
        </>
      }
    />
  );
}
