import { createFileRoute, notFound } from '@tanstack/react-router';
import { isUuid, requireAccess } from '@/app/guard';
import { loadNavigationCorpus } from '@/features/navigation/loaders';
import { SearchPage } from '@/features/search/SearchPage';
import {
  parseSearchPage,
  toSearchPageSearch,
  validateSearchPageSearch,
} from '@/features/search/searchUrl';

export const Route = createFileRoute('/search/{-$corpusId}')({
  staticData: { name: 'search' },
  validateSearch: validateSearchPageSearch,
  beforeLoad: async (ctx) => {
    await requireAccess({ feature: 'search' })(ctx);
    // The project is optional; when given, it is a UUID like every id of a path.
    if (ctx.params.corpusId !== undefined && !isUuid(ctx.params.corpusId)) throw notFound();
  },
  loader: async ({ context, params }) => {
    if (params.corpusId) await loadNavigationCorpus(context.queryClient, params.corpusId);
  },
  component: SearchRoute,
});

function SearchRoute() {
  const { corpusId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SearchPage
      corpusId={corpusId ?? null}
      state={parseSearchPage(search)}
      onStateChange={(state) => void navigate({ search: toSearchPageSearch(state) })}
      onCorpusChange={(id) =>
        void navigate({
          to: '/search/{-$corpusId}',
          params: { corpusId: id },
          // Facets are the project's own: another project starts without them.
          search: (previous) => {
            const { params, submitted } = parseSearchPage(previous);
            return toSearchPageSearch({ submitted, params: { ...params, page: 1, facets: {} } });
          },
        })
      }
    />
  );
}
