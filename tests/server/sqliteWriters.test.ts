/**
 * The server's database file has other writers (the CLI). A server transaction that read, then
 * writes after another process committed, must not fail: it holds the write lock from its start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../server/db';

describe('SQLite transactions beside another writer', () => {
  let handle: DbHandle | null = null;
  let dir = '';
  afterEach(async () => {
    await handle?.close();
    handle = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('take the write lock when they begin, so another process waits instead of breaking them', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-writers-'));
    handle = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: dir });
    const db = handle.db;
    await sql`create table counters (name text primary key, n integer not null)`.execute(db);
    await sql`insert into counters values ('pages', 1)`.execute(db);
    const cli = new BetterSqlite3(path.join(dir, 'folia.sqlite3'));
    cli.pragma('busy_timeout = 0');
    try {
      const outcome = await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{
          n: number;
        }>`select n from counters where name = 'pages'`.execute(trx);
        // Another process tries to write meanwhile: the server's transaction holds the lock.
        expect(() => cli.exec("update counters set n = 100 where name = 'pages'")).toThrow(
          /database is locked/,
        );
        await sql`update counters set n = ${rows[0]!.n + 1} where name = 'pages'`.execute(trx);
        return rows[0]!.n + 1;
      });
      expect(outcome).toBe(2);
      // Once committed, the other process writes as usual.
      cli.exec("update counters set n = n + 10 where name = 'pages'");
      const { rows } = await sql<{ n: number }>`select n from counters`.execute(db);
      expect(rows).toEqual([{ n: 12 }]);
    } finally {
      cli.close();
    }
  });
});
