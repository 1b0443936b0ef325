import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachingStatements, statementStats } from '../../server/db/statementCache';

function database() {
  const raw = new BetterSqlite3(':memory:');
  raw.exec('create table t (n integer)');
  raw.exec('insert into t values (1), (2), (3)');
  return raw;
}

describe('SQLite statements kept between queries', () => {
  it('hands the same statement back for the same SQL, with each call its own parameters', () => {
    const db = cachingStatements(database());
    const first = db.prepare('select n from t where n >= ?');
    const again = db.prepare('select n from t where n >= ?');
    expect(again).toBe(first);
    expect((again as BetterSqlite3.Statement).all(2)).toEqual([{ n: 2 }, { n: 3 }]);
    expect((first as BetterSqlite3.Statement).all(3)).toEqual([{ n: 3 }]);
    expect(db.prepare('select n from t')).not.toBe(first);
  });

  it('prepares another one while a kept statement is still being read', () => {
    const db = cachingStatements(database());
    const sql = 'select n from t order by n';
    const reading = db.prepare(sql) as BetterSqlite3.Statement;
    const rows = reading.iterate();
    expect(rows.next().value).toEqual({ n: 1 });
    const other = db.prepare(sql) as BetterSqlite3.Statement;
    expect(other).not.toBe(reading);
    expect(other.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
    // Done reading: the kept one is handed out again.
    expect(db.prepare(sql)).toBe(reading);
  });

  it('keeps at most `max`, dropping the least recently used', () => {
    const db = cachingStatements(database(), 2);
    const a = db.prepare('select 1');
    const b = db.prepare('select 2');
    expect(db.prepare('select 1')).toBe(a);
    db.prepare('select 3');
    expect(db.prepare('select 1')).toBe(a);
    expect(db.prepare('select 2')).not.toBe(b);
  });

  it('sees schema changes made after a statement was kept', () => {
    const raw = database();
    const db = cachingStatements(raw);
    const before = statementStats.reused;
    expect((db.prepare('select * from t limit 1') as BetterSqlite3.Statement).get()).toEqual({
      n: 1,
    });
    raw.exec("alter table t add column label text default 'x'");
    expect((db.prepare('select * from t limit 1') as BetterSqlite3.Statement).get()).toEqual({
      n: 1,
      label: 'x',
    });
    expect(statementStats.reused).toBe(before + 1);
  });
});
