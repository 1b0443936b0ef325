import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { corpusQuery } from '@/api/corpora';
import { storedCorpusElementsQuery } from '@/offline/queries';
import { useSelectionToggle } from '@/offline/selectionToggle';
import { currentUserQuery } from '@/api/user';
import type { Corpus, ElementListItem } from '@/api/types';
import { NewFolderModal } from '@/components/folders/NewFolderModal';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PaginationBar } from '@/components/PaginationBar';
import { FILTER_NAMES } from '@/lib/filters';
import {
  orderChoices,
  parseNavigationQuery,
  toListQuery,
  toNavigationSearch,
  withOrder,
  withPage,
  withPageSize,
  type NavigationQuery,
  type NavigationSearch,
} from '@/lib/navigationQuery';
import { useDocumentTitle } from '@/lib/documentTitle';
import { FOLDER_WRITE, accessOf, blockedReason, grantsRight } from '@/lib/rights';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { DeleteFilteredModal } from './DeleteFilteredModal';
import { deletionBlocked } from './deletion';
import { ElementGrid } from './ElementGrid';
import { FilterBar } from './FilterBar';
import { ListControls } from './ListControls';
import { ListingError } from './ListingError';
import { ui } from './styles';
import { useFilterControls } from './useFilterControls';

/** A second pagination bar under the grid once a page is long enough to scroll past the first. */
const BOTTOM_BAR_FROM = 8;

export interface NavigationPageProps {
  corpusId: string;
  /** The validated search params of the page: the navigation query. */
  search: NavigationSearch;
  /** Header actions the route adds beside the page's own. */
  actions?: ReactNode;
}

/** The navigation page: a project's elements, filtered, ordered and paginated from the URL. */
export function NavigationPage({ corpusId, search, actions }: NavigationPageProps) {
  const corpus = useQuery(corpusQuery(corpusId));
  useErrorNotification(corpus.error);

  if (!corpus.data) {
    return (
      <section className="mx-auto max-w-7xl p-6">
        {corpus.isPending && (
          <p role="status" className="text-slate-600">
            Loading…
          </p>
        )}
      </section>
    );
  }
  return <NavigationView corpus={corpus.data} search={search} actions={actions} />;
}

function NavigationView({
  corpus,
  search,
  actions,
}: {
  corpus: Corpus;
  search: NavigationSearch;
  actions?: ReactNode;
}) {
  const corpusId = corpus.id;
  useDocumentTitle([corpus.name]);
  const query = useMemo(() => parseNavigationQuery(search), [search]);
  const elements = useQuery({
    ...storedCorpusElementsQuery(corpusId, toListQuery(query)),
    // The previous page stays on screen while the next one loads, instead of a blank grid.
    placeholderData: keepPreviousData,
  });
  useErrorNotification(elements.error);

  const { data: user = null } = useQuery(currentUserQuery);

  const navigate = useNavigate();
  const router = useRouter();
  const go = useCallback(
    (next: NavigationQuery) =>
      navigate({ to: '/browse/$corpusId', params: { corpusId }, search: toNavigationSearch(next) }),
    [navigate, corpusId],
  );
  const hrefFor = useCallback(
    (page: number) => {
      const location = router.buildLocation({
        to: '/browse/$corpusId',
        params: { corpusId },
        search: toNavigationSearch(withPage(query, page)),
      });
      return router.history.createHref(location.href);
    },
    [router, corpusId, query],
  );

  const types = corpus.types;
  const typeName = useCallback(
    (slug: string) => types.find((type) => type.slug === slug)?.display_name ?? slug,
    [types],
  );
  const { describe, bar } = useFilterControls({ corpus, query, go, available: FILTER_NAMES });

  const [modal, setModal] = useState<'folder' | 'delete' | null>(null);
  const access = accessOf(corpus, user);
  const folderBlocked = blockedReason(FOLDER_WRITE, access);
  // Spec 001 §5: only verified project or site administrators see the filtered deletion.
  const mayDelete = access.verified && (grantsRight(access.rights, 'admin') || !!user?.is_admin);
  // The count on screen is the one confirmed: a list still loading has none yet.
  const listedCount =
    elements.data && !elements.isPlaceholderData && !elements.isError ? elements.data.count : null;
  // Deletion runs on the server, unlike New folder which the outbox keeps for later.
  const deleteBlocked = useNeedsNetwork() ?? deletionBlocked(query, listedCount);

  const toggle = useSelectionToggle();
  const selection = (element: ElementListItem) =>
    toggle(element, { id: corpusId, name: corpus.name });

  const page = elements.data;
  const pagination = page && (
    <PaginationBar
      count={page.count}
      page={query.page}
      pageSize={query.pageSize}
      singular="element"
      onPageChange={(target) => void go(withPage(query, target))}
      hrefFor={hrefFor}
    />
  );

  return (
    <section className="mx-auto max-w-7xl space-y-4 p-6" aria-labelledby="navigation-heading">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Project</p>
          <h1 id="navigation-heading" className="text-2xl font-semibold break-words text-brand-900">
            {corpus.name}
          </h1>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {actions}
          <GuardedButton
            blocked={folderBlocked}
            className={ui.secondaryButton}
            onClick={() => setModal('folder')}
          >
            New folder
          </GuardedButton>
          {mayDelete && (
            <GuardedButton
              blocked={deleteBlocked}
              className={ui.dangerOutlineButton}
              onClick={() => setModal('delete')}
            >
              Delete elements
            </GuardedButton>
          )}
        </div>
      </header>
      {modal === 'folder' && <NewFolderModal corpus={corpus} onClose={() => setModal(null)} />}
      {modal === 'delete' && listedCount !== null && (
        <DeleteFilteredModal
          corpusId={corpusId}
          query={query}
          count={listedCount}
          describe={describe}
          onClose={() => setModal(null)}
          onDeleted={() => void go(withPage(query, 1))}
        />
      )}

      <FilterBar {...bar} />

      <ListControls
        order={query.order}
        direction={query.direction}
        pageSize={query.pageSize}
        orders={orderChoices()}
        onOrderChange={(order, direction) => void go(withOrder(query, order, direction))}
        onPageSizeChange={(size) => void go(withPageSize(query, size))}
      />

      {elements.isError && !elements.isFetching ? (
        <ListingError error={elements.error} />
      ) : !page ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : (
        <>
          <h2 className="sr-only">Elements</h2>
          {pagination}
          <ElementGrid
            elements={page.results}
            typeName={typeName}
            selection={selection}
            stale={elements.isPlaceholderData}
          />
          {page.results.length >= BOTTOM_BAR_FROM && (
            <PaginationBar
              count={page.count}
              page={query.page}
              pageSize={query.pageSize}
              singular="element"
              onPageChange={(target) => void go(withPage(query, target))}
              hrefFor={hrefFor}
              showJump={false}
              label="Pagination, bottom"
            />
          )}
        </>
      )}
    </section>
  );
}
