/** Rows per multi-row statement: SQLite allows 32,766 bound values, PostgreSQL 65,535. */
export const INSERT_CHUNK = 500;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
