/** Page sources for the worker lists: a select already ordered, each row turned into JSON. */
import type { SelectQueryBuilder } from 'kysely';
import { countRows, type PageSource } from '../../pagination';
import type { Database } from '../../db/schema';

export function rowPages<TB extends keyof Database, O, T>(
  query: SelectQueryBuilder<Database, TB, O>,
  order: (query: SelectQueryBuilder<Database, TB, O>) => SelectQueryBuilder<Database, TB, O>,
  toJson: (row: O) => T | Promise<T>,
): PageSource<T> {
  return {
    count: () => countRows(query),
    fetch: async ({ limit, offset }) => {
      const rows = await order(query).limit(limit).offset(offset).execute();
      return Promise.all(rows.map(toJson));
    },
  };
}

/** A list already in memory (a version's fields), paged like the others. */
export function arrayPages<T>(items: T[]): PageSource<T> {
  return {
    count: async () => items.length,
    fetch: async ({ limit, offset }) => items.slice(offset, offset + limit),
  };
}
