import { experimental_createQueryPersister } from '@tanstack/query-persist-client-core';
import { localDb } from './db';

/**
 * Small UI queries are persisted one by one in IndexedDB (never the whole cache), so the shell
 * knows the server and the user after an offline reload.
 */
export const queryPersister = experimental_createQueryPersister({
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
});

export const persisted = { persister: queryPersister.persisterFn };
