import { liveQuery } from 'dexie';
import { useEffect, useState, type DependencyList } from 'react';

/**
 * The value of a Dexie query, kept current as the database changes, in this tab or another.
 * `initial` is shown until the first answer.
 */
export function useLiveQuery<T>(query: () => Promise<T>, deps: DependencyList, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    const subscription = liveQuery(query).subscribe({
      next: (next) => setValue(() => next),
      // A closed or blocked database leaves the last value: the page keeps working.
      error: () => undefined,
    });
    return () => subscription.unsubscribe();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return value;
}
