/**
 * SQLite transactions that take the write lock when they begin (BEGIN IMMEDIATE) instead of at
 * their first write (Kysely's plain BEGIN). The server is not the only writer of its database
 * file: the CLI (imports, users, farms) writes beside it. A deferred transaction that has read
 * and then writes after another process committed cannot upgrade its snapshot: SQLite answers
 * SQLITE_BUSY at once, whatever busy_timeout says, and the request fails with a 500. Taking the
 * lock first lets busy_timeout wait for the other writer instead.
 */
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}
