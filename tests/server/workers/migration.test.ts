/**
 * Migration 0011 on a database that already holds processes and worker runs: SQLite rebuilds
 * the processes table to make its project optional, which must keep every row and every link.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Migrator, sql, type Migration } from 'kysely';
import pg from 'pg';
import { openDatabase, type DbHandle } from '../../../server/db';
import { migrateToLatest } from '../../../server/db/migrate';
import * as m0001 from '../../../server/db/migrations/0001_accounts_and_corpora';
import * as m0002 from '../../../server/db/migrations/0002_images';
import * as m0003 from '../../../server/db/migrations/0003_elements';
import * as m0004 from '../../../server/db/migrations/0004_jobs_heartbeat';
import * as m0005 from '../../../server/db/migrations/0005_element_lists';
import * as m0006 from '../../../server/db/migrations/0006_data_files';
import * as m0007 from '../../../server/db/migrations/0007_idempotency_keys';
import * as m0008 from '../../../server/db/migrations/0008_worker_runs_and_entities';
import * as m0009 from '../../../server/db/migrations/0009_selections';
import * as m0010 from '../../../server/db/migrations/0010_user_active';
import { DIALECTS } from '../harness';
import { PG_URL } from '../throwawayApp';

const BEFORE: Record<string, Migration> = {
  '0001_accounts_and_corpora': m0001,
  '0002_images': m0002,
  '0003_elements': m0003,
  '0004_jobs_heartbeat': m0004,
  '0005_element_lists': m0005,
  '0006_data_files': m0006,
  '0007_idempotency_keys': m0007,
  '0008_worker_runs_and_entities': m0008,
  '0009_selections': m0009,
  '0010_user_active': m0010,
};

const NOW = '2024-01-01T00:00:00.000Z';
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function openEmpty(dialect: string): Promise<{ handle: DbHandle; schema: string | null }> {
  if (dialect === 'sqlite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-m0011-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    return {
      handle: await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir }),
      schema: null,
    };
  }
  const schema = `m0011_${process.pid}_${Date.now()}`;
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });
  return {
    handle: await openDatabase({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' }),
    schema,
  };
}

describe.each(DIALECTS)('migration 0011 [%s]', (dialect) => {
  it('keeps processes and their worker runs, and lets a process have no project', async () => {
    const { handle, schema } = await openEmpty(dialect);
    try {
      const db = handle.db;
      const migrator = new Migrator({
        db: db as never,
        provider: { getMigrations: async () => BEFORE },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      await sql`insert into corpora (id, name, description, public, indexable, top_level_type, created, updated)
        values ('c0000000-0000-4000-8000-000000000001', 'P', '', 0, 1, null, ${NOW}, ${NOW})`.execute(
        db,
      );
      await sql`insert into workers (id, name, slug, type, description, repository_url, archived, created)
        values ('a0000000-0000-4000-8000-000000000001', 'W', 'w', 'custom', '', null, 0, ${NOW})`.execute(
        db,
      );
      await sql`insert into worker_versions (id, worker_id, revision_hash, version, configuration, state, created)
        values ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'abcdef1', null, '{}', 'available', ${NOW})`.execute(
        db,
      );
      await sql`insert into processes (id, corpus_id, name, mode, state, creator_id, created, started, finished)
        values ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Run', 'workers', 'completed', null, ${NOW}, null, null)`.execute(
        db,
      );
      await sql`insert into worker_runs (id, process_id, worker_version_id, model_version_id, configuration_id, parents, created)
        values ('e0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001', null, null, '[]', ${NOW})`.execute(
        db,
      );

      expect(await migrateToLatest(db as never, schema)).toContain('0011_workers');

      const process = await db.selectFrom('processes').selectAll().executeTakeFirstOrThrow();
      expect(process).toMatchObject({
        id: 'd0000000-0000-4000-8000-000000000001',
        corpus_id: 'c0000000-0000-4000-8000-000000000001',
        name: 'Run',
        mode: 'workers',
      });
      const version = await db.selectFrom('worker_versions').selectAll().executeTakeFirstOrThrow();
      expect(version).toMatchObject({
        gpu_usage: 'disabled',
        model_usage: 'disabled',
        feature: null,
      });
      const types = await db.selectFrom('worker_types').select('slug').execute();
      expect(types.map((type) => type.slug)).toEqual(
        expect.arrayContaining(['classifier', 'custom']),
      );

      await db
        .insertInto('processes')
        .values({
          id: 'd0000000-0000-4000-8000-000000000002',
          corpus_id: null,
          name: null,
          mode: 'local',
          state: 'unscheduled',
          creator_id: null,
          created: NOW,
          started: null,
          finished: null,
        })
        .execute();
      // The links still hold: a worker run needs its process, and a project takes its processes.
      await expect(
        db
          .insertInto('worker_runs')
          .values({
            id: 'e0000000-0000-4000-8000-000000000002',
            process_id: 'f0000000-0000-4000-8000-000000000009',
            worker_version_id: 'b0000000-0000-4000-8000-000000000001',
            model_version_id: null,
            configuration_id: null,
            parents: '[]',
            created: NOW,
          })
          .execute(),
      ).rejects.toThrow();
      await db.deleteFrom('corpora').execute();
      expect(await db.selectFrom('worker_runs').select('id').execute()).toEqual([]);
      expect((await db.selectFrom('processes').select('id').execute()).map((p) => p.id)).toEqual([
        'd0000000-0000-4000-8000-000000000002',
      ]);
    } finally {
      await handle.close();
    }
  });
});
