import { randomBytes } from 'node:crypto';
import type { Db } from '../db';

/** A value kept in the database, created once: every server process sharing it agrees. */
export async function getOrCreateSetting(
  db: Db,
  name: string,
  make: () => string,
): Promise<string> {
  const existing = await db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('settings')
    .values({ name, value: make() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

export function getSecretKey(db: Db): Promise<string> {
  return getOrCreateSetting(db, 'secret_key', () => randomBytes(32).toString('hex'));
}
