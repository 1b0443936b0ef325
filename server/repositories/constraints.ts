/**
 * Two requests may pass the same "does it exist yet?" check; the database's unique
 * constraint then decides, and the loser must get the same answer as a sequential caller.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // PostgreSQL unique_violation, and better-sqlite3's extended result codes.
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
