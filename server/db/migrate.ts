import {
  Migrator,
  sql,
  type DatabaseIntrospector,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type TableMetadata,
} from 'kysely';
import * as m0001 from './migrations/0001_accounts_and_corpora';
import * as m0002 from './migrations/0002_images';
import * as m0003 from './migrations/0003_elements';
import * as m0004jobs from './migrations/0004_jobs_heartbeat';
import * as m0005 from './migrations/0005_element_lists';
import * as m0006 from './migrations/0006_data_files';
import * as m0007 from './migrations/0007_idempotency_keys';
import * as m0008 from './migrations/0008_worker_runs_and_entities';
import * as m0009 from './migrations/0009_selections';
import * as m0010 from './migrations/0010_user_active';
import * as m0011 from './migrations/0011_workers';
import * as m0012 from './migrations/0012_model_rights_and_archives';
import * as m0013 from './migrations/0013_results_by_worker_run';
import * as m0014 from './migrations/0014_processes_tasks_agents';
import * as m0015 from './migrations/0015_datasets';
import * as m0017 from './migrations/0017_process_sets';
import * as m0018 from './migrations/0018_process_elements_by_element';
import * as m0019 from './migrations/0019_search_index';
import * as m0020 from './migrations/0020_exports';
import * as m0021 from './migrations/0021_imported_manifests';
import * as m0022 from './migrations/0022_element_name_index';
import * as m0023 from './migrations/0023_secrets';
import * as m0024 from './migrations/0024_groups';
import * as m0025 from './migrations/0025_budgets';

/** Migrations are listed here in order; their names are recorded in the database. */
const migrations: Record<string, Migration> = {
  '0001_accounts_and_corpora': m0001,
  '0002_images': m0002,
  '0003_elements': m0003,
  '0004_jobs_heartbeat': m0004jobs,
  '0005_element_lists': m0005,
  '0006_data_files': m0006,
  '0007_idempotency_keys': m0007,
  '0008_worker_runs_and_entities': m0008,
  '0009_selections': m0009,
  '0010_user_active': m0010,
  '0011_workers': m0011,
  '0012_model_rights_and_archives': m0012,
  '0013_results_by_worker_run': m0013,
  '0014_processes_tasks_agents': m0014,
  '0015_datasets': m0015,
  // 0016 was never used, and must not be: a database that ran 0017 refuses a migration before it.
  '0017_process_sets': m0017,
  '0018_process_elements_by_element': m0018,
  '0019_search_index': m0019,
  '0020_exports': m0020,
  '0021_imported_manifests': m0021,
  '0022_element_name_index': m0022,
  '0023_secrets': m0023,
  '0024_groups': m0024,
  '0025_budgets': m0025,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * schema: the PostgreSQL schema to migrate (when not the default). Kysely must be told, or it
 * may see another schema's migration tables and skip creating its own.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  schema: string | null = null,
): Promise<string[]> {
  const migrator = new Migrator({
    db: schema ? seeingOnly(db, schema) : db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrator asks whether its schema and tables exist through the dialect's introspection,
 * which on PostgreSQL reads every schema of the database and resolves their names: one dropped
 * meanwhile by another app on the same database (test suites do, side by side) fails it with
 * 'schema … does not exist'. This handle answers those questions from the one schema alone.
 */
function seeingOnly(db: Kysely<unknown>, schema: string): Kysely<unknown> {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db);
    return rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: async () =>
      (
        await sql<{ name: string }>`
          select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db)
      ).rows,
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
