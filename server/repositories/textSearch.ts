import { sql, type Expression, type SqlBool } from 'kysely';

/** `column LIKE %text%` whatever the case, with the text's own % and _ taken literally. */
export function containsInsensitive(column: Expression<string>, text: string): Expression<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // SQLite has no default escape character: the clause is spelled out for both dialects.
  return sql<SqlBool>`lower(${column}) like lower(${pattern}) escape '\\'`;
}
