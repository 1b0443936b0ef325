/**
 * Worker versions (api/arkindex-api-2.md §3.2, §3.5): a git revision (revision_url) or, for
 * versions published without one, the next integer version of the worker. Its configuration
 * holds `user_configuration`, the schema of the settings a configuration may give, checked by
 * the module the configuration editor uses too.
 */
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { WorkerVersionTable } from '../../db/schema';
import { notFound, validationError, validationErrors } from '../../errors';
import { nowIso } from '../../clock';
import { requireUuid } from '../../permissions';
import { nameProblems } from '../secrets/names';
import { schemaProblems, type UserConfiguration } from './configurationRules';
import { lockWorker, type WorkerRow } from './workers';

export type VersionRow = Selectable<WorkerVersionTable>;

export const VERSION_STATES = ['created', 'available', 'error'] as const;
export const USAGES = ['disabled', 'supported', 'required'] as const;
/** The built-in features a version may provide (api/arkindex-api-2.md §3.5). */
export const FEATURES = [
  'init_elements',
  'file_import',
  's3_ingest',
  'thumbnails_generator',
  'dataset_extractor',
  'pdf_export',
  'pagexml_export',
  'alto_export',
  'docx_export',
  'csv_export',
] as const;

type WorkerSummary = Pick<WorkerRow, 'id' | 'name' | 'slug' | 'type' | 'repository_url'>;

export function parseConfiguration(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The version's schema when it has one that the editor can use, else null. */
export function userConfiguration(
  version: Pick<VersionRow, 'configuration'>,
): UserConfiguration | null {
  const schema = parseConfiguration(version.configuration).user_configuration;
  return schema !== undefined && schemaProblems(schema).length === 0
    ? (schema as UserConfiguration)
    : null;
}

export function versionJson(version: VersionRow, worker: WorkerSummary) {
  return {
    id: version.id,
    worker: {
      id: worker.id,
      name: worker.name,
      slug: worker.slug,
      type: worker.type,
      repository_url: worker.repository_url,
    },
    version: version.version,
    revision_url: version.revision_url,
    branch: version.branch,
    tag: version.tag,
    state: version.state,
    gpu_usage: version.gpu_usage,
    model_usage: version.model_usage,
    docker_image_iid: version.docker_image_iid,
    feature: version.feature,
    created: version.created,
    configuration: parseConfiguration(version.configuration),
  };
}

/** Versions with their worker, for lists: one query, the JSON of each row. */
export function versionsWithWorker(db: Db) {
  return db
    .selectFrom('worker_versions')
    .innerJoin('workers', 'workers.id', 'worker_versions.worker_id')
    .selectAll('worker_versions')
    .select([
      'workers.name as worker_name',
      'workers.slug as worker_slug',
      'workers.type as worker_type',
      'workers.repository_url as worker_repository_url',
    ]);
}

type JoinedRow = VersionRow & {
  worker_name: string;
  worker_slug: string;
  worker_type: string;
  worker_repository_url: string | null;
};

export function joinedVersionJson(row: JoinedRow) {
  return versionJson(row, {
    id: row.worker_id,
    name: row.worker_name,
    slug: row.worker_slug,
    type: row.worker_type,
    repository_url: row.worker_repository_url,
  });
}

/** A version named in a path, with its worker: 404 when unknown. */
export async function requireVersion(db: Db, id: string): Promise<JoinedRow> {
  const row = await versionsWithWorker(db)
    .where('worker_versions.id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Newest first; versions made in the same millisecond by their number. */
export function newestFirst<Q extends ReturnType<typeof versionsWithWorker>>(query: Q): Q {
  return query
    .orderBy('worker_versions.created', 'desc')
    .orderBy('worker_versions.version', 'desc')
    .orderBy('worker_versions.id') as Q;
}

/** A git hash ending the revision URL (…/commit/<sha>) is what summaries show of a version. */
export function revisionHash(revisionUrl: string | null | undefined): string | null {
  const last = revisionUrl?.replace(/\/+$/, '').split('/').pop() ?? '';
  return /^[0-9a-f]{7,40}$/i.test(last) ? last.toLowerCase() : null;
}

export interface NewVersion {
  configuration?: Record<string, unknown> | undefined;
  revision_url?: string | null | undefined;
  tag?: string | null | undefined;
  branch?: string | null | undefined;
  state?: (typeof VERSION_STATES)[number] | undefined;
  gpu_usage?: (typeof USAGES)[number] | undefined;
  model_usage?: (typeof USAGES)[number] | undefined;
  docker_image_iid?: string | null | undefined;
  feature?: (typeof FEATURES)[number] | null | undefined;
}

/** A user_configuration the editor could not use is refused, each problem on its own key. */
function checkSchema(configuration: Record<string, unknown>): void {
  if (!('user_configuration' in configuration)) return;
  const problems = schemaProblems(configuration.user_configuration);
  if (problems.length === 0) return;
  throw validationErrors(
    problems.map((problem) => ({
      code: 'invalid',
      detail: problem.message,
      attr: ['configuration', 'user_configuration', problem.key].filter(Boolean).join('.'),
    })),
  );
}

/**
 * The secrets a version's program may read while its tasks run (`"secrets": ["ocr/service/key"]`,
 * as Arkindex's versions declare them; services/secrets/ reads the list): names a secret could
 * have, so that a typo is told at publication rather than as a refusal in a task's log.
 */
function checkDeclaredSecrets(configuration: Record<string, unknown>): void {
  if (!('secrets' in configuration)) return;
  const attr = 'configuration.secrets';
  const declared = configuration.secrets;
  if (!Array.isArray(declared) || declared.some((name) => typeof name !== 'string')) {
    throw validationError(attr, 'Expected a list of secret names.');
  }
  for (const name of declared as string[]) {
    const problem = nameProblems(name)[0];
    if (problem) throw validationError(attr, `"${name}": ${problem.detail}`);
  }
}

async function checkFeatureFree(db: Db, feature: string, exceptId: string | null): Promise<void> {
  let query = db.selectFrom('worker_versions').select('id').where('feature', '=', feature);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) {
    throw validationError(
      'feature',
      `A worker version already provides the feature ${feature}.`,
      'unique',
    );
  }
}

/**
 * A built-in feature runs unattended (api/arkindex-api-2.md §3.5): its version may not require
 * a GPU or a model, nor a setting nobody would give.
 */
function checkFeatureRunsAlone(input: NewVersion, configuration: Record<string, unknown>): void {
  if (!input.feature) return;
  if (input.gpu_usage === 'required' || input.model_usage === 'required') {
    throw validationError(
      'feature',
      'A version providing a feature cannot require a GPU or a model.',
    );
  }
  const schema = configuration.user_configuration as UserConfiguration | undefined;
  if (schema && hasRequiredWithoutDefault(schema)) {
    throw validationError(
      'feature',
      'A version providing a feature cannot have a required setting without a default.',
    );
  }
}

function hasRequiredWithoutDefault(schema: UserConfiguration): boolean {
  return Object.values(schema).some((field) =>
    field.type === 'group'
      ? hasRequiredWithoutDefault(field.children ?? {})
      : field.required !== false && (field.default === undefined || field.default === null),
  );
}

export async function createVersion(db: Db, worker: WorkerRow, input: NewVersion) {
  const configuration = input.configuration ?? {};
  checkSchema(configuration);
  checkDeclaredSecrets(configuration);
  checkFeatureRunsAlone(input, configuration);
  // Two releases published at once must not both take the next number or the same revision.
  return db.transaction().execute(async (trx) => {
    await lockWorker(trx, worker.id);
    return insertVersion(trx, worker, input, configuration);
  });
}

async function insertVersion(
  db: Db,
  worker: WorkerRow,
  input: NewVersion,
  configuration: Record<string, unknown>,
) {
  const revisionUrl = input.revision_url ?? null;
  if (revisionUrl) {
    const taken = await db
      .selectFrom('worker_versions')
      .select('id')
      .where('worker_id', '=', worker.id)
      .where('revision_url', '=', revisionUrl)
      .executeTakeFirst();
    if (taken) {
      throw validationError(
        'revision_url',
        'A worker version with this revision_url already exists for this worker.',
        'unique',
      );
    }
  }
  if (input.feature) await checkFeatureFree(db, input.feature, null);
  let version: number | null = null;
  if (!revisionUrl) {
    const last = await db
      .selectFrom('worker_versions')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('worker_id', '=', worker.id)
      .executeTakeFirst();
    version = Number(last?.version ?? 0) + 1;
  }
  const row: VersionRow = {
    id: randomUUID(),
    worker_id: worker.id,
    revision_hash: revisionHash(revisionUrl),
    version,
    configuration: JSON.stringify(configuration),
    state: input.state ?? 'created',
    created: nowIso(),
    revision_url: revisionUrl,
    branch: input.branch ?? null,
    tag: input.tag ?? null,
    gpu_usage: input.gpu_usage ?? 'disabled',
    model_usage: input.model_usage ?? 'disabled',
    docker_image_iid: input.docker_image_iid ?? null,
    feature: input.feature ?? null,
  };
  await db.insertInto('worker_versions').values(row).execute();
  return versionJson(row, worker);
}

export interface VersionUpdate {
  state?: (typeof VERSION_STATES)[number] | undefined;
  tag?: string | null | undefined;
  branch?: string | null | undefined;
}

export async function updateVersion(db: Db, row: JoinedRow, input: VersionUpdate) {
  const changes = {
    ...(input.state !== undefined ? { state: input.state } : {}),
    ...(input.tag !== undefined ? { tag: input.tag } : {}),
    ...(input.branch !== undefined ? { branch: input.branch } : {}),
  };
  if (Object.keys(changes).length > 0) {
    await db.updateTable('worker_versions').set(changes).where('id', '=', row.id).execute();
  }
  return joinedVersionJson({ ...row, ...changes });
}

/**
 * The version to run when none is chosen: the newest available one, a tagged one before an
 * untagged one, since a tag marks a release.
 */
export async function recommendedVersion(db: Db, workerId: string) {
  const row = await newestFirst(
    versionsWithWorker(db)
      .where('worker_versions.worker_id', '=', workerId)
      .where('worker_versions.state', '=', 'available')
      .orderBy((eb) => eb.case().when('worker_versions.tag', 'is', null).then(1).else(0).end()),
  ).executeTakeFirst();
  if (!row) throw notFound();
  return joinedVersionJson(row);
}

/** RetrieveFeatureWorkerVersion: the available version providing a built-in feature. */
export async function featureVersion(db: Db, feature: string) {
  const row = await newestFirst(
    versionsWithWorker(db)
      .where('worker_versions.feature', '=', feature)
      .where('worker_versions.state', '=', 'available'),
  ).executeTakeFirst();
  if (!row) throw notFound();
  return joinedVersionJson(row);
}
