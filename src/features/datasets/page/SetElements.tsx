/**
 * One set's elements as cards, 20 at a time: "Load more" or the 'm' key (spec 000 §2: m loads
 * more children or dataset elements) reads the next page of the set shown.
 */
import { useEffect } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { storedDatasetElementsQuery } from '@/offline/datasetReads';
import { ElementCard } from '@/components/ElementCard';
import { ui } from '@/components/styles';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { isTyping } from '@/lib/keyboard';

export const NO_ELEMENTS = 'No elements to display.';
export const OFFLINE_SET = 'Offline: only the elements of this set kept on this device are shown.';

export function SetElements({
  datasetId,
  set,
  typeName,
}: {
  datasetId: string;
  set: string;
  typeName: (slug: string) => string;
}) {
  const query = useInfiniteQuery(storedDatasetElementsQuery(datasetId, set));
  useErrorNotification(query.error);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = hasNextPage && !isFetchingNextPage;

  useEffect(() => {
    if (!loadMore) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'm' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isTyping(event.target)) return;
      void fetchNextPage();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [loadMore, fetchNextPage]);

  if (query.isPending) {
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading…
      </p>
    );
  }
  if (query.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        The elements of this set could not be loaded.
      </p>
    );
  }
  const rows = query.data.pages.flatMap((page) => page.results);
  const offlineNote = query.data.pages.some((page) => page.offline) && (
    <p role="status" className="text-sm text-amber-800">
      {OFFLINE_SET}
    </p>
  );
  if (rows.length === 0) {
    return (
      <div className="flex flex-col gap-2">
        {offlineNote}
        <p className="text-sm text-slate-600">{NO_ELEMENTS}</p>
      </div>
    );
  }
  const total = query.data.pages[0]?.count;
  return (
    <div className="flex flex-col gap-4">
      {offlineNote}
      <ul aria-label={`Elements of set ${set}`} className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {rows.map(({ element }) => (
          <li key={element.id}>
            <ElementCard element={element} typeName={typeName(element.type)} />
          </li>
        ))}
      </ul>
      <div className="flex items-center gap-3 text-sm text-slate-600">
        {typeof total === 'number' && (
          <span>
            {rows.length} of {total} shown
          </span>
        )}
        {hasNextPage && (
          <button
            type="button"
            className={ui.secondaryButton}
            disabled={isFetchingNextPage}
            onClick={() => void fetchNextPage()}
            title="Or press m"
          >
            {isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
    </div>
  );
}
