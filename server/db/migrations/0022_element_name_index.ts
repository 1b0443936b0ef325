// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * An index for the elements' name filter (`name` contains some text, whatever the case), which
 * otherwise reads every element of the project:
 * - SQLite: element_names, an FTS5 table with the trigram tokenizer over elements.name
 *   (external content: it stores only the index, keyed by the element's rowid), kept up to
 *   date by triggers so every write reaches it. Queries use it to narrow the rows first.
 * - PostgreSQL: a pg_trgm GIN index on lower(name), which `lower(name) LIKE '%…%'` uses as it
 *   is. pg_trgm ships with PostgreSQL's contrib; where it is not installed or may not be
 *   created, no index is made and the filter keeps working, only slower.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create virtual table element_names using fts5(
      name, content='elements', content_rowid='rowid', tokenize='trigram')`.execute(db);
    await sql`create trigger element_names_insert after insert on elements begin
      insert into element_names(rowid, name) values (new.rowid, new.name);
    end`.execute(db);
    await sql`create trigger element_names_delete after delete on elements begin
      insert into element_names(element_names, rowid, name) values ('delete', old.rowid, old.name);
    end`.execute(db);
    await sql`create trigger element_names_update after update of name on elements
      when old.name is not new.name begin
      insert into element_names(element_names, rowid, name) values ('delete', old.rowid, old.name);
      insert into element_names(rowid, name) values (new.rowid, new.name);
    end`.execute(db);
    await sql`insert into element_names(element_names) values ('rebuild')`.execute(db);
    return;
  }

  // A refused CREATE EXTENSION must not abort the migration's transaction: a savepoint.
  await sql`savepoint pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    await sql`release savepoint pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db);
  }
  // Wherever the extension lives (an older install may have put it elsewhere).
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) return;
  await sql`create index elements_name_trgm on elements
    using gin (lower(name) ${sql.raw(`"${schema.replace(/"/g, '""')}".gin_trgm_ops`)})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const trigger of ['insert', 'delete', 'update']) {
      await sql`drop trigger if exists ${sql.raw(`element_names_${trigger}`)}`.execute(db);
    }
    await sql`drop table if exists element_names`.execute(db);
    return;
  }
  await sql`drop index if exists elements_name_trgm`.execute(db);
}
