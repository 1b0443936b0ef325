import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';
import { migrateToLatest } from '../../server/db/migrate';
import { PG_URL, postgresAnswers } from './throwawayApp';
import pg from 'pg';

const pgAvailable = await postgresAnswers();

/** Schemas made and dropped as other suites' apps do beside this one, until stopped. */
async function churn(stop: { done: boolean }, label: string): Promise<number> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  let rounds = 0;
  try {
    while (!stop.done) {
      const schema = `churn_${label}_${rounds}`;
      await client.query(`CREATE SCHEMA ${schema}`);
      for (let i = 0; i < 8; i += 1) {
        await client.query(`CREATE TABLE ${schema}.t${i} (id serial primary key, v text)`);
      }
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      rounds += 1;
    }
  } finally {
    await client.end();
  }
  return rounds;
}

describe.runIf(pgAvailable)('migrations on PostgreSQL', () => {
  it('migrate a schema while other schemas of the database come and go', async () => {
    const stop = { done: false };
    const churning = [churn(stop, 'a'), churn(stop, 'b'), churn(stop, 'c')];
    const schemas = Array.from({ length: 6 }, (_, i) => `migrate_beside_${process.pid}_${i}`);
    try {
      for (const schema of schemas) {
        const handle = await openDatabase({
          databaseUrl: PG_URL,
          databaseSchema: schema,
          dataDir: '',
        });
        try {
          const applied = await migrateToLatest(handle.db as never, schema);
          expect(applied.length).toBeGreaterThan(0);
          // Up to date: a second run finds its tables in its own schema and applies nothing.
          expect(await migrateToLatest(handle.db as never, schema)).toEqual([]);
        } finally {
          await handle.close();
        }
      }
    } finally {
      stop.done = true;
      const rounds = await Promise.all(churning);
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
      expect(rounds.every((n) => n > 0)).toBe(true);
    }
    // Six schemas migrated beside the churn: a correctness check, given the time a busy
    // machine needs (it took over 20 s with two other suites running).
  }, 120_000);
});
