import { useCallback, useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import type { Corpus } from '@/api/types';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
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
  type QueryContext,
} from '@/lib/navigationQuery';
import { storedChildrenQuery } from '@/offline/queries';
import { ElementGrid } from './ElementGrid';
import { FilterBar } from './FilterBar';
import { ListControls } from './ListControls';
import { ListingError } from './ListingError';
import { useFilterControls } from './useFilterControls';

const UNDER_ELEMENT: QueryContext = { underElement: true };
// top_level means nothing among an element's children.
const CHILD_FILTERS = FILTER_NAMES.filter((name) => name !== 'top_level');

export interface FolderChildrenListProps {
  elementId: string;
  corpus: Corpus;
  /** The element page's search params: the navigation query of the folder's list. */
  search: NavigationSearch;
  typeName: (slug: string) => string;
}

/**
 * A folder's children (spec 001 §2: "Folders show a filtered element navigation list"): the
 * project page's filter bar, ordering (position first) and page size, kept in the URL.
 */
export function FolderChildrenList({
  elementId,
  corpus,
  search,
  typeName,
}: FolderChildrenListProps) {
  const query = useMemo(() => parseNavigationQuery(search, UNDER_ELEMENT), [search]);
  const children = useQuery({
    ...storedChildrenQuery(elementId, { ...toListQuery(query), with_has_children: true }),
    placeholderData: keepPreviousData,
  });
  useErrorNotification(children.error);

  const navigate = useNavigate();
  const router = useRouter();
  // The path the user came along (from) stays; a child highlighted on an image means nothing here.
  const searchOf = useCallback(
    (next: NavigationQuery) => (previous: { from?: string }) => ({
      ...(previous.from && { from: previous.from }),
      ...toNavigationSearch(next, UNDER_ELEMENT),
    }),
    [],
  );
  const go = useCallback(
    (next: NavigationQuery) =>
      navigate({ to: '/element/$id', params: { id: elementId }, search: searchOf(next) }),
    [navigate, elementId, searchOf],
  );
  const hrefFor = useCallback(
    (page: number) => {
      const location = router.buildLocation({
        to: '/element/$id',
        params: { id: elementId },
        search: searchOf(withPage(query, page)),
      });
      return router.history.createHref(location.href);
    },
    [router, elementId, searchOf, query],
  );
  const { bar } = useFilterControls({ corpus, query, go, available: CHILD_FILTERS });

  const page = children.data;
  return (
    <div className="flex flex-col gap-4">
      <FilterBar {...bar} />
      <ListControls
        order={query.order}
        direction={query.direction}
        pageSize={query.pageSize}
        orders={orderChoices(UNDER_ELEMENT)}
        onOrderChange={(order, direction) => void go(withOrder(query, order, direction))}
        onPageSizeChange={(size) => void go(withPageSize(query, size))}
      />
      {children.isError && !children.isFetching ? (
        <ListingError error={children.error} />
      ) : !page ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : (
        <>
          <PaginationBar
            count={page.count}
            page={query.page}
            pageSize={query.pageSize}
            singular="element"
            onPageChange={(target) => void go(withPage(query, target))}
            hrefFor={hrefFor}
          />
          {/* The cards' names are h3s: the level between them and the page's h1. */}
          <h2 className="sr-only">Child elements</h2>
          <ElementGrid
            elements={page.results}
            typeName={typeName}
            stale={children.isPlaceholderData}
            label="Child elements"
          />
        </>
      )}
    </div>
  );
}
