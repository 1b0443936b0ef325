import { experimental_createQueryPersister } from '@tanstack/query-persist-client-core';
import { localDb } from './db';

/**
 * Small UI queries are persisted one by one in IndexedDB (never the whole cache), so the shell
 * knows the server and the user after an offline reload. A restored copy is asked for again
 * when stale (`refetchOnRestore`).
 */
function createPersister(refetchOnRestore: boolean) {
  return experimental_createQueryPersister({
    storage: {
      getItem: async (key) => (await localDb.queries.get(key))?.value ?? null,
      setItem: async (key, value) => {
        await localDb.queries.put({ key, value });
      },
      removeItem: async (key) => {
        await localDb.queries.delete(key);
      },
      entries: async () => (await localDb.queries.toArray()).map((row) => [row.key, row.value]),
    },
    maxAge: 30 * 24 * 3600 * 1000,
    buster: 'v1',
    refetchOnRestore,
  });
}

/** Reads, writes and forgets the persisted copies of every query, whichever persister made them. */
export const queryPersister = createPersister(true);

export const persisted = { persister: queryPersister.persisterFn };

const restoreOnly = createPersister(false);

/**
 * For a copy that may be wrong however recent it is, such as the current user: shown at once
 * when restored, and asked for again at once. The library's own 'always' leaves a failed refetch
 * (any offline reload) as an unhandled rejection; here a failure just keeps the copy.
 */
const restoreAndRefetch: typeof restoreOnly.persisterFn = async (queryFn, context, query) => {
  let fetched = false;
  const data = await restoreOnly.persisterFn(
    (fnContext) => {
      fetched = true;
      return queryFn(fnContext);
    },
    context,
    query,
  );
  // After the restore's own macrotask, which dates the query with the copy's date.
  if (!fetched) setTimeout(() => void query.fetch().catch(() => undefined));
  return data;
};

export const persistedAndRefreshed = { persister: restoreAndRefetch };
