/**
 * Migration 0012 on a database that already holds models and versions (made before models had
 * rights): they keep their state, become private and unarchived, and get an update date.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from '../../../server/db';
import { migrateToLatest } from '../../../server/db/migrate';

it('keeps the models and versions made before it (SQLite)', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-migration-'));
  const handle = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
  try {
    const db = handle.db as unknown as Kysely<unknown>;
    const migrator = new Migrator({
      db,
      // The migration files themselves, imported through the test runner, which reads TypeScript.
      provider: {
        async getMigrations() {
          const dir = path.resolve(__dirname, '../../../server/db/migrations');
          const files = fs.readdirSync(dir).filter((name) => /^\d{4}_\w+\.ts$/.test(name));
          const modules = await Promise.all(
            files.map(async (name) => [
              name.replace(/\.ts$/, ''),
              (await import(path.join(dir, name))) as Migration,
            ]),
          );
          return Object.fromEntries(modules) as Record<string, Migration>;
        },
      },
    });
    const before = await migrator.migrateTo('0011_workers');
    expect(before.error).toBeUndefined();
    const created = '2024-01-02T03:04:05.000Z';
    await sql`insert into models (id, name, description, created)
      values ('m1', 'Old model', '', ${created})`.execute(db);
    await sql`insert into model_versions (id, model_id, tag, hash, state, configuration, created)
      values ('v1', 'm1', 'v1', 'cafe', 'available', '{}', ${created})`.execute(db);

    expect(await migrateToLatest(db)).toContain('0012_model_rights_and_archives');

    const model = await handle.db.selectFrom('models').selectAll().executeTakeFirstOrThrow();
    expect(model).toMatchObject({ public: 0, archived: 0, updated: created });
    const version = await handle.db
      .selectFrom('model_versions')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(version).toMatchObject({
      state: 'available',
      description: '',
      parent_id: null,
      size: null,
      archive_hash: null,
      updated: created,
    });
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
