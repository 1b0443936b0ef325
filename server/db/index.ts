import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteAdapter } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { ImmediateSqliteDialect } from './immediateTransactions';
import type { Database } from './schema';
import { cachingStatements } from './statementCache';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

/** Whether a handle (or a transaction of it) speaks to SQLite, for the few queries that differ. */
export function isSqlite(db: Kysely<unknown> | Db): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** SQLite file in the data dir by default; PostgreSQL when a postgres:// URL is configured. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
): Promise<DbHandle> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
    if (schema) {
      const setup = new pg.Client({ connectionString: config.databaseUrl });
      await setup.connect();
      try {
        await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      } finally {
        await setup.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      // JIT compilation costs 180–300 ms on the recursive element lists and never pays back here.
      options: [schema ? `-c search_path=${schema}` : '', '-c jit=off'].filter(Boolean).join(' '),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(path.join(config.dataDir, 'folia.sqlite3'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: cachingStatements(sqlite) }),
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
