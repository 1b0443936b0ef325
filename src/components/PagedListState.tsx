/**
 * The states every paginated list screen goes through before its table: loading, failed (with
 * the screen's own words), empty (its own words too), then the page itself.
 */
import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '@/api/client';

export function PagedListState<T, E = Error>({
  query,
  failed,
  empty,
  failedRole,
  children,
}: {
  query: UseQueryResult<Page<T>, E>;
  failed: (error: E) => ReactNode;
  empty: ReactNode;
  /** `alert` where a failure is news the user must hear (a refusal), not a passing state. */
  failedRole?: 'alert';
  children: (page: Page<T>) => ReactNode;
}) {
  if (query.isPending)
    return (
      <p role="status" className="text-slate-600">
        Loading…
      </p>
    );
  if (query.isError)
    return (
      <p role={failedRole} className="text-slate-600">
        {failed(query.error)}
      </p>
    );
  if (query.data.count === 0) return <p className="text-slate-600">{empty}</p>;
  return children(query.data);
}
