/**
 * Model versions (spec 000 §4 "Models"): a version is created empty (state `created`), gets its
 * archive by a PUT to its `s3_put_url` (archives.ts), and is then `available` for download and
 * for processes. Contributors see every version; readers without write (guests, and everyone on
 * a public model) only available, tagged ones, as Arkindex lets them run only those.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import type { ModelVersion, ModelVersionState, User } from '../../db/schema';
import { invalidPk, notFound, validationError } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import { checkModelRight, findModelAccess, requireModelRight, type ModelAccess } from './rights';
import { requireUuid, type Right } from '../../permissions';
import { removeArchive } from './archives';

export interface ModelVersionJson {
  id: string;
  model_id: string;
  model: { id: string; name: string };
  state: ModelVersionState;
  parent: string | null;
  tag: string | null;
  description: string;
  configuration: unknown;
  size: number | null;
  hash: string | null;
  archive_hash: string | null;
  created: string;
  updated: string;
  s3_url: string | null;
  s3_put_url: string | null;
}

function parseConfiguration(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** `origin`: the server's own address, for the download and upload links. */
export function modelVersionJson(
  version: ModelVersion,
  model: { id: string; name: string },
  origin: string,
): ModelVersionJson {
  const state = version.state as ModelVersionState;
  const base = `${origin}/api/v1/modelversion/${version.id}`;
  return {
    id: version.id,
    model_id: version.model_id,
    model: { id: model.id, name: model.name },
    state,
    parent: version.parent_id,
    tag: version.tag,
    description: version.description,
    configuration: parseConfiguration(version.configuration),
    size: version.size === null ? null : Number(version.size),
    hash: version.hash,
    archive_hash: version.archive_hash,
    created: version.created,
    updated: version.updated ?? version.created,
    s3_url: state === 'available' ? `${base}/download/` : null,
    // A failed upload may be tried again: only a stored or storing version is closed to uploads.
    s3_put_url: state === 'created' || state === 'error' ? `${base}/upload/` : null,
  };
}

/** Readers without write only see what they may run: available, tagged versions. */
function seesEveryVersion(access: ModelAccess): boolean {
  return access.rights.includes('write');
}

export function modelVersionPages(
  db: Db,
  access: ModelAccess,
  origin: string,
): PageSource<ModelVersionJson> {
  let query = db.selectFrom('model_versions').selectAll().where('model_id', '=', access.model.id);
  if (!seesEveryVersion(access)) {
    query = query.where('state', '=', 'available').where('tag', 'is not', null);
  }
  return {
    count: () => countRows(query),
    async fetch({ limit, offset }) {
      const rows = await query
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((row) => modelVersionJson(row, access.model, origin));
    },
  };
}

export interface VersionAccess {
  version: ModelVersion;
  access: ModelAccess;
}

/** A version named in a path: 404 when the caller cannot see it, 403 when the right is missing. */
export async function requireModelVersionRight(
  db: Db,
  user: User,
  versionId: string,
  right: Right,
): Promise<VersionAccess> {
  const version = await db
    .selectFrom('model_versions')
    .selectAll()
    .where('id', '=', requireUuid(versionId))
    .executeTakeFirst();
  if (!version) throw notFound();
  const access = await findModelAccess(db, user, version.model_id);
  if (!access) throw notFound();
  if (!seesEveryVersion(access) && (version.state !== 'available' || version.tag === null))
    throw notFound();
  checkModelRight(access, right);
  return { version, access };
}

const TAG_TAKEN = 'A version of this model already has this tag.';

async function checkTagFree(
  db: Db,
  modelId: string,
  tag: string | null | undefined,
  exceptId?: string,
) {
  if (tag === null || tag === undefined) return;
  let query = db
    .selectFrom('model_versions')
    .select('id')
    .where('model_id', '=', modelId)
    .where('tag', '=', tag);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw validationError('tag', TAG_TAKEN, 'unique');
}

export interface NewModelVersionInput {
  tag?: string | null | undefined;
  description?: string | undefined;
  configuration?: Record<string, unknown> | undefined;
  parent?: string | null | undefined;
}

/** CreateModelVersion: an empty version of a model that is not archived, waiting for its archive. */
export async function createModelVersion(
  db: Db,
  user: User,
  modelId: string,
  input: NewModelVersionInput,
): Promise<{ version: ModelVersion; access: ModelAccess }> {
  const access = await requireModelRight(db, user, modelId, 'write');
  if (access.model.archived === 1) {
    throw validationError('model', 'This model is archived: it takes no new versions.', 'archived');
  }
  await checkTagFree(db, access.model.id, input.tag);
  if (input.parent) {
    const parent = await db
      .selectFrom('model_versions')
      .select('id')
      .where('id', '=', input.parent.toLowerCase())
      .where('model_id', '=', access.model.id)
      .executeTakeFirst();
    if (!parent) throw invalidPk('parent', input.parent);
  }
  const now = nowIso();
  const version = await db
    .insertInto('model_versions')
    .values({
      id: randomUUID(),
      model_id: access.model.id,
      tag: input.tag ?? null,
      description: input.description ?? '',
      parent_id: input.parent?.toLowerCase() ?? null,
      hash: null,
      archive_hash: null,
      size: null,
      state: 'created',
      configuration: JSON.stringify(input.configuration ?? {}),
      created: now,
      updated: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { version, access };
}

export interface ModelVersionChanges {
  tag?: string | null | undefined;
  description?: string | undefined;
  configuration?: Record<string, unknown> | undefined;
}

export async function updateModelVersion(
  db: Db,
  version: ModelVersion,
  changes: ModelVersionChanges,
): Promise<ModelVersion> {
  if (changes.tag !== undefined && changes.tag !== version.tag) {
    await checkTagFree(db, version.model_id, changes.tag, version.id);
  }
  const set: Partial<Pick<ModelVersion, 'tag' | 'description' | 'configuration'>> = {};
  if (changes.tag !== undefined) set.tag = changes.tag;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.configuration !== undefined)
    set.configuration = JSON.stringify(changes.configuration);
  if (Object.keys(set).length === 0) return version;
  const updated = await db
    .updateTable('model_versions')
    .set({ ...set, updated: nowIso() })
    .where('id', '=', version.id)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw notFound();
  return updated;
}

/** DestroyModelVersion: its archive goes; worker runs that used it keep running without it. */
export async function deleteModelVersion(
  db: Db,
  dataDir: string,
  version: ModelVersion,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('model_versions')
      .set({ parent_id: null })
      .where('parent_id', '=', version.id)
      .execute();
    await trx.deleteFrom('model_versions').where('id', '=', version.id).execute();
  });
  await removeArchive(dataDir, version.id);
}
