/**
 * An editable entity's version is its `updated` time, sent as Last-Modified and checked against
 * If-Unmodified-Since (preconditions.ts): HTTP dates, which count whole seconds. So that no
 * change hides in the second a client read, each change moves the version into a later second
 * than the one before: now, or the second after the previous version while that is not past.
 * Edits of one entity faster than one a second run its version ahead of the clock by as much.
 */
import { sql } from 'kysely';
import type { Db } from './db';
import { nowIso } from './clock';
import { chunks, INSERT_CHUNK } from './db/chunks';

const SECOND = 1000;

export function nextVersion(previous: string | null | undefined, now: string = nowIso()): string {
  if (!previous) return now;
  const afterPrevious = (Math.floor(Date.parse(previous) / SECOND) + 1) * SECOND;
  return Date.parse(now) >= afterPrevious ? now : new Date(afterPrevious).toISOString();
}

/**
 * The versioned entities. A children list is dated otherwise: its Last-Modified is announced as
 * of the second before while its last change's second lasts (childrenLastModified), which suits
 * If-Modified-Since; for If-Unmodified-Since it would make a conflict of every fresh read.
 */
type Versioned = 'elements' | 'transcriptions' | 'classifications' | 'metadata';

/**
 * nextVersion over many rows at once: rows whose version is before now's second take now, in one
 * statement; the few already in that second or later move one second past their own.
 */
export async function bumpVersions(
  db: Db,
  table: Versioned,
  ids: Iterable<string>,
  now: string = nowIso(),
): Promise<void> {
  const secondStart = new Date(Math.floor(Date.parse(now) / SECOND) * SECOND).toISOString();
  for (const part of chunks([...new Set(ids)], INSERT_CHUNK)) {
    const late = await sql<{ id: string; version: string }>`
      select id, updated as version from ${sql.table(table)}
      where id in (${sql.join(part)}) and updated >= ${secondStart}`.execute(db);
    const lateIds = new Set(late.rows.map((row) => row.id));
    const onTime = part.filter((id) => !lateIds.has(id));
    if (onTime.length) {
      await sql`update ${sql.table(table)} set updated = ${now}
        where id in (${sql.join(onTime)})`.execute(db);
    }
    for (const row of late.rows) {
      await sql`update ${sql.table(table)} set updated = ${nextVersion(row.version, now)}
        where id = ${row.id}`.execute(db);
    }
  }
}
