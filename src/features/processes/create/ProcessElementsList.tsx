import { useInfiniteQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import { filtersOf, processElementsQuery } from '@/api/processConfiguration';
import type { Process, ProcessElement } from '@/api/processTypes';
import type { ElementListItem, ImageInfo } from '@/api/types';
import { ElementCard } from '@/components/ElementCard';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';

/** The card's shape for a process element: its image and polygon make the zone. */
function asListItem(element: ProcessElement, corpusId: string): ElementListItem {
  const polygon = element.polygon ?? null;
  const zone =
    element.image_url && element.image_width && element.image_height
      ? {
          id: element.id,
          polygon: polygon ?? [],
          url: '',
          image: {
            id: element.image_id ?? '',
            url: element.image_url,
            width: element.image_width,
            height: element.image_height,
          } as ImageInfo,
        }
      : null;
  return {
    id: element.id,
    type: element.type,
    name: element.name,
    corpus: { id: corpusId },
    thumbnail_url: null,
    zone,
    rotation_angle: element.rotation_angle ?? 0,
    mirrored: element.mirrored ?? false,
    confidence: element.confidence,
    created: '',
    worker_run: null,
  };
}

/** The elements the process' filters select, counted, paged by cursor with "Load more". */
export function ProcessElementsList({
  process,
  typeName,
}: {
  process: Process;
  typeName: (slug: string) => string;
}) {
  const query = useInfiniteQuery(processElementsQuery(process.id, filtersOf(process)));
  useErrorNotification(query.error);
  const elements = query.data?.pages.flatMap((page) => page.results) ?? [];
  const count = query.data?.pages[0]?.count;

  return (
    <section aria-labelledby="process-elements" className="space-y-3">
      <h2 id="process-elements" className="text-lg font-semibold text-slate-900">
        {count === undefined ? 'Elements' : `${count} element${count === 1 ? '' : 's'}`}
      </h2>
      {query.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : query.isError ? (
        <p className="text-red-700">
          The elements could not be listed: {errorMessage(query.error)}
        </p>
      ) : elements.length === 0 ? (
        <p className="text-slate-600">No elements match these filters.</p>
      ) : (
        <ul
          aria-busy={query.isPlaceholderData || undefined}
          className={`grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
        >
          {elements.map((element) => (
            <li key={element.id}>
              <ElementCard
                element={asListItem(element, process.corpus ?? '')}
                typeName={typeName(element.type)}
                thumbnailHeight={120}
              />
            </li>
          ))}
        </ul>
      )}
      {query.hasNextPage && (
        <button
          type="button"
          className={ui.secondaryButton}
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
