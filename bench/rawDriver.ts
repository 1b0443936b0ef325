/**
 * The database through its own driver, with no query builder and nothing of the server's:
 * better-sqlite3 on the server's file or a pg client on its schema. Benchmarks use it for
 * their baseline side (the SQL a request needs, run bare) and to load rows fast.
 */
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../server/config';

export interface RawDriver {
  dialect: 'sqlite' | 'postgres';
  /** Every row of a statement written with $1, $2… placeholders (both dialects). */
  all(text: string, params?: unknown[]): Promise<unknown[]>;
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface SqliteDriver extends RawDriver {
  dialect: 'sqlite';
  db: BetterSqlite3.Database;
}

export interface PostgresDriver extends RawDriver {
  dialect: 'postgres';
  client: pg.Client;
}

export function sqliteFile(config: Config): string {
  return path.join(config.dataDir, 'folia.sqlite3');
}

export function openSqlite(config: Config): SqliteDriver {
  const db = new BetterSqlite3(sqliteFile(config));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // Prepared once per text, as any program using the driver well would.
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text.replace(/\$\d+/g, '?'));
      statements.set(text, statement);
    }
    return statement;
  };
  return {
    dialect: 'sqlite',
    db,
    all: async (text, params = []) => prepared(text).all(...params),
    exec: async (text) => void db.exec(text),
    close: async () => void db.close(),
  };
}

export async function openPostgres(config: Config): Promise<PostgresDriver> {
  const client = new pg.Client({
    connectionString: config.databaseUrl!,
    options: `-c search_path=${config.databaseSchema}`,
  });
  await client.connect();
  return {
    dialect: 'postgres',
    client,
    all: async (text, params = []) => (await client.query(text, params)).rows,
    exec: async (text) => void (await client.query(text)),
    close: () => client.end(),
  };
}

export function openRaw(config: Config): Promise<SqliteDriver | PostgresDriver> {
  return config.databaseUrl ? openPostgres(config) : Promise.resolve(openSqlite(config));
}
