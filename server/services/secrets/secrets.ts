/**
 * Workers' secrets (enterprise edition). Site admins create, list (names only), reveal and
 * delete them; the program a task runs reads, with its task token, the ones its worker version
 * declares in its configuration (`"secrets": ["ocr/service/key", …]`, as Arkindex's worker
 * versions list them) and nothing else. Values are sealed by crypto.ts before they reach the
 * database and opened only to be answered: no log, task log or export ever holds one.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db';
import type { SecretTable } from '../../db/schema';
import { notFound, permissionDenied, validationErrors, type ErrorItem } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import { requireSiteAdmin } from '../../permissions';
import { taskForToken } from '../tasks/tokens';
import { open, seal } from './crypto';
import { SECRET_CONTENT_MAX, nameProblems } from './names';

export interface SecretSummary {
  id: string;
  name: string;
  created: string;
  updated: string;
}

export interface RevealedSecret {
  id: string;
  name: string;
  content: string;
}

export const NAME_TAKEN = 'A secret with this name already exists.';
export const NOT_DECLARED = "This task's worker version does not declare this secret.";

const summary = (row: Pick<SecretTable, keyof SecretSummary>): SecretSummary => ({
  id: row.id,
  name: row.name,
  created: row.created,
  updated: row.updated,
});

/** Secrets exist in the enterprise edition only: elsewhere their routes are unknown. */
export function requireSecretsKey(app: FastifyInstance): Buffer {
  const key = app.config.features.enterprise ? app.config.secretsKey : null;
  if (!key) throw notFound();
  return key;
}

/** Every secret's name (never its value), in name order. */
export function secretPages(db: Db): PageSource<SecretSummary> {
  const base = () => db.selectFrom('secrets');
  return {
    count: () => countRows(base().select('id')),
    async fetch({ limit, offset }) {
      const rows = await base()
        .select(['id', 'name', 'created', 'updated'])
        .orderBy('name')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(summary);
    },
  };
}

async function nameTaken(db: Db, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('secrets')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  return !!row;
}

export async function createSecret(
  db: Db,
  key: Buffer,
  input: { name: string; content: string },
): Promise<SecretSummary> {
  const problems: ErrorItem[] = nameProblems(input.name);
  if (input.content.length > SECRET_CONTENT_MAX) {
    problems.push({
      code: 'max_length',
      detail: `Ensure this field has no more than ${SECRET_CONTENT_MAX} characters.`,
      attr: 'content',
    });
  }
  if (problems.length) throw validationErrors(problems);
  const taken = () => validationErrors([{ code: 'unique', detail: NAME_TAKEN, attr: 'name' }]);
  if (await nameTaken(db, input.name)) throw taken();
  const now = new Date().toISOString();
  const row = {
    id: randomUUID(),
    name: input.name,
    ...seal(key, input.name, input.content),
    created: now,
    updated: now,
  };
  try {
    await db.insertInto('secrets').values(row).execute();
  } catch (error) {
    // Another request took the name between the check and the insert.
    if (await nameTaken(db, input.name)) throw taken();
    throw error;
  }
  return summary(row);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The secret a path names: by name, or by id as modern worker configurations give it
 * (`GET /secret/<uuid>`). A trailing slash is the API's habit, not part of a name.
 */
export async function findSecret(db: Db, path: string): Promise<SecretTable | null> {
  const name = path.endsWith('/') ? path.slice(0, -1) : path;
  const byName = await db
    .selectFrom('secrets')
    .selectAll()
    .where('name', '=', name)
    .executeTakeFirst();
  if (byName || !UUID.test(name)) return byName ?? null;
  return (
    (await db
      .selectFrom('secrets')
      .selectAll()
      .where('id', '=', name.toLowerCase())
      .executeTakeFirst()) ?? null
  );
}

export function reveal(key: Buffer, row: SecretTable): RevealedSecret {
  return { id: row.id, name: row.name, content: open(key, row.name, row) };
}

/** The names a worker version's configuration declares; anything else there declares none. */
export function declaredNames(configuration: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(configuration);
  } catch {
    return [];
  }
  const secrets = (parsed as { secrets?: unknown } | null)?.secrets;
  return Array.isArray(secrets)
    ? secrets.filter((name): name is string => typeof name === 'string')
    : [];
}

/** The names the running task behind a `Ponos` header may read. */
async function namesForTask(db: Db, request: FastifyRequest): Promise<string[]> {
  const token = /^Ponos\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const task = token ? await taskForToken(db, token) : null;
  if (!task?.worker_run_id) return [];
  const version = await db
    .selectFrom('worker_runs')
    .innerJoin('worker_versions', 'worker_versions.id', 'worker_runs.worker_version_id')
    .select('worker_versions.configuration')
    .where('worker_runs.id', '=', task.worker_run_id)
    .executeTakeFirst();
  return version ? declaredNames(version.configuration) : [];
}

/**
 * RetrieveSecret: a site admin reveals any secret; a task's program only a declared one. A task
 * asking for one it does not declare is told so whether or not it exists, so that it learns
 * nothing of other secrets' names.
 */
export async function readableSecret(
  db: Db,
  request: FastifyRequest,
  path: string,
): Promise<SecretTable> {
  if (request.authMethod === 'task') {
    const declared = await namesForTask(db, request);
    const row = await findSecret(db, path);
    if (!row || !declared.includes(row.name)) throw permissionDenied(NOT_DECLARED);
    return row;
  }
  requireSiteAdmin(request.user);
  const row = await findSecret(db, path);
  if (!row) throw notFound();
  return row;
}

export async function deleteSecret(db: Db, path: string): Promise<void> {
  const row = await findSecret(db, path);
  if (!row) throw notFound();
  await db.deleteFrom('secrets').where('id', '=', row.id).execute();
}
