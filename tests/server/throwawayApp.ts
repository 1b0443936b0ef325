/**
 * An app on a database of its own: a fresh data dir and, on PostgreSQL, a fresh schema, both gone
 * after close(). The test harness and the benchmarks start from it, so it imports nothing from
 * vitest: the benchmarks run outside the test runner.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';

export const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DialectName = 'sqlite' | 'postgres';

export async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export interface ThrowawayApp {
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

interface Options {
  /** Names the data dir and the schema, so that leftovers say who made them. */
  label: string;
  env?: Record<string, string>;
  build?: BuildOptions;
}

export async function makeThrowawayApp(
  dialect: DialectName,
  { label, env = {}, build }: Options,
): Promise<ThrowawayApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `folia-${label}-`));
  const schema = `${label}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const config: Config = {
    ...loadConfig({ ...env, FOLIA_DATA_DIR: dataDir, FOLIA_LOG: '0' }),
    databaseUrl: dialect === 'postgres' ? PG_URL : null,
    databaseSchema: dialect === 'postgres' ? schema : null,
    distDir: path.join(dataDir, 'no-dist'),
  };
  const app = await buildApp(config, build);
  return {
    app,
    config,
    async close() {
      await app.close();
      if (dialect === 'postgres') {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
