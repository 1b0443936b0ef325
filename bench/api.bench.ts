/**
 * API read paths on SQLite and PostgreSQL, side by side: the project list a user sees on
 * the Projects page and one project, with 200 projects in the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { hashPassword } from '../server/auth/passwords';
import { measure, printTable, type Figure } from './measure';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function benchDialect(dialect: 'sqlite' | 'postgres'): Promise<Figure[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-bench-'));
  const schema = `bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const app = await buildApp({
    ...loadConfig({ FOLIA_DATA_DIR: dataDir, FOLIA_LOG: '0' }),
    databaseUrl: dialect === 'postgres' ? PG_URL : null,
    databaseSchema: dialect === 'postgres' ? schema : null,
    distDir: path.join(dataDir, 'none'),
  });
  try {
    const now = new Date().toISOString();
    const userId = randomUUID();
    const token = randomUUID().replace(/-/g, '');
    await app.db
      .insertInto('users')
      .values({
        id: userId,
        email: 'bench@example.com',
        display_name: 'Bench',
        password_hash: await hashPassword('x'.repeat(12)),
        is_admin: 0,
        verified_email: 1,
        can_manage_workers: 0,
        can_ingest: 0,
        auth_token: token,
        last_login: null,
        created: now,
        updated: now,
      })
      .execute();
    let firstId = '';
    for (let i = 0; i < 200; i += 1) {
      const id = randomUUID();
      firstId ||= id;
      await app.db
        .insertInto('corpora')
        .values({
          id,
          name: `Project ${i}`,
          description: '',
          public: 0,
          indexable: 0,
          top_level_type: null,
          created: now,
          updated: now,
        })
        .execute();
      for (const slug of ['folder', 'page', 'text_line', 'paragraph']) {
        await app.db
          .insertInto('element_types')
          .values({
            id: randomUUID(),
            corpus_id: id,
            slug,
            display_name: slug,
            folder: slug === 'folder' ? 1 : 0,
            color: '28b62c',
            indexable: 1,
          })
          .execute();
      }
      await app.db
        .insertInto('memberships')
        .values({ id: randomUUID(), corpus_id: id, user_id: userId, level: 100, created: now })
        .execute();
    }
    const headers = { authorization: `Token ${token}` };
    return [
      await measure(`${dialect}: GET /corpus/ (200 projects)`, 200, () =>
        app.inject({ url: '/api/v1/corpus/', headers }),
      ),
      await measure(`${dialect}: GET /corpus/{id}/`, 1000, () =>
        app.inject({ url: `/api/v1/corpus/${firstId}/`, headers }),
      ),
      await measure(`${dialect}: GET /api/v1/ (server info)`, 2000, () =>
        app.inject({ url: '/api/v1/' }),
      ),
    ];
  } finally {
    await app.close();
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const figures = await benchDialect('sqlite');
  const withPg = await pgReachable();
  const pgFigures = withPg ? await benchDialect('postgres') : [];
  printTable([...figures, ...pgFigures]);
  if (withPg) {
    console.log('\nratio PostgreSQL / SQLite (median time):');
    figures.forEach((f, i) => {
      const other = pgFigures[i];
      if (other)
        console.log(
          `  ${f.label.replace(/^sqlite: /, '')}: ${(other.medianMs / f.medianMs).toFixed(2)}×`,
        );
    });
  } else {
    console.log('\n(PostgreSQL unreachable: SQLite figures only)');
  }
  const t0 = performance.now();
  await hashPassword('a password to hash');
  console.log(
    `\nscrypt password hash: ${(performance.now() - t0).toFixed(0)} ms (slows guessing; paid once per login)`,
  );
}
