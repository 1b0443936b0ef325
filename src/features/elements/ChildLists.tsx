import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { storedChildrenQuery } from '@/offline/queries';
import type { ElementListItem } from '@/api/types';
import { ElementCard } from '@/components/ElementCard';
import { PaginationBar } from '@/components/PaginationBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { CHILD_LIST_PAGE_SIZE, childListQuery } from './api';

export const NO_ZONES = 'No zones for this element';

interface ChildListProps {
  elementId: string;
  typeName: (slug: string) => string;
}

function usePagedChildren(elementId: string) {
  const [page, setPage] = useState(1);
  const query = useQuery(storedChildrenQuery(elementId, childListQuery(page)));
  useErrorNotification(query.error);
  return { page, setPage, query };
}

function CardGrid({
  items,
  typeName,
}: {
  items: ElementListItem[];
  typeName: (slug: string) => string;
}) {
  return (
    <ul className="grid grid-cols-2 gap-4 lg:grid-cols-4" aria-label="Child elements">
      {items.map((child) => (
        <li key={child.id}>
          <ElementCard element={child} typeName={typeName(child.type)} />
        </li>
      ))}
    </ul>
  );
}

function Status({ children }: { children: string }) {
  return <p className="text-slate-600">{children}</p>;
}

/**
 * An element with neither image nor folder type shows the children that have an image zone;
 * without any, the page says so.
 */
export function DisplayableChildren({ elementId, typeName }: ChildListProps) {
  const { page, setPage, query } = usePagedChildren(elementId);
  if (query.isPending)
    return (
      <p role="status" className="text-slate-600">
        Loading…
      </p>
    );
  if (query.isError) return <Status>The children of this element could not be loaded.</Status>;
  const { count, results, next, previous } = query.data;
  const displayable = results.filter((child) => child.zone);
  if (displayable.length === 0 && !next && !previous) return <Status>{NO_ZONES}</Status>;
  return (
    <div className="flex flex-col gap-4">
      <PaginationBar
        count={count}
        page={page}
        pageSize={CHILD_LIST_PAGE_SIZE}
        singular="element"
        onPageChange={setPage}
      />
      {/* The cards' names are h3s: the level between them and the page's h1. */}
      <h2 className="sr-only">Child elements</h2>
      {displayable.length ? (
        <CardGrid items={displayable} typeName={typeName} />
      ) : (
        <Status>{NO_ZONES}</Status>
      )}
    </div>
  );
}
