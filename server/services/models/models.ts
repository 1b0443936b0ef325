/**
 * Models (spec 000 §4 "Models"): ListModels, CreateModel, RetrieveModel, PartialUpdateModel.
 * Names are unique: creating or renaming onto a name taken by a model the caller can read
 * answers 400 naming it (`id`), as Arkindex does so clients can reuse it; onto one they
 * cannot read, 403, which reveals no more than the name they typed.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import type { Model, User } from '../../db/schema';
import { ApiError, permissionDenied, type ErrorBody } from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import { LEVEL, type Right } from '../../permissions';
import { containsInsensitive } from '../../repositories/textSearch';
import {
  checkModelRight,
  levelsOn,
  modelRights,
  readableModelIds,
  type ModelAccess,
} from './rights';

export const MODEL_NAME_MAX = 100;

export interface ModelJson {
  id: string;
  name: string;
  description: string;
  created: string;
  updated: string;
  archived: boolean;
  public: boolean;
  rights: Right[];
}

export function modelJson(model: Model, rights: Right[]): ModelJson {
  return {
    id: model.id,
    name: model.name,
    description: model.description,
    created: model.created,
    updated: model.updated ?? model.created,
    archived: model.archived === 1,
    public: model.public === 1,
    rights,
  };
}

/** The 400 of a taken name, with the existing model's id at the top level, as Arkindex. */
class NameTaken extends ApiError {
  constructor(private readonly existingModelId: string) {
    super(400, 'validation_error', [
      { code: 'unique', detail: 'A model with this name already exists.', attr: 'name' },
    ]);
  }

  override body(): ErrorBody {
    return Object.assign(super.body(), { id: this.existingModelId });
  }
}

const NAME_TAKEN_UNREADABLE = 'A model with this name already exists and you cannot read it.';

async function checkNameFree(db: Db, user: User, name: string, exceptId?: string): Promise<void> {
  let query = db.selectFrom('models').select(['id', 'public']).where('name', '=', name);
  if (exceptId) query = query.where('id', '!=', exceptId);
  const taken = await query.executeTakeFirst();
  if (!taken) return;
  const readable = await readableModelIds(db, user)
    .where('models.id', '=', taken.id)
    .executeTakeFirst();
  if (readable) throw new NameTaken(taken.id);
  throw permissionDenied(NAME_TAKEN_UNREADABLE);
}

export interface ModelFilters {
  name?: string | undefined;
  archived: boolean;
  compatibleWorker?: string | undefined;
}

/** The models the caller can read, by name, for the page-list helper. */
export function modelPages(db: Db, user: User, filters: ModelFilters): PageSource<ModelJson> {
  let query = db
    .selectFrom('models')
    .selectAll()
    .where('models.id', 'in', readableModelIds(db, user))
    .where('models.archived', '=', filters.archived ? 1 : 0);
  if (filters.name) query = query.where(containsInsensitive(sql.ref('models.name'), filters.name));
  if (filters.compatibleWorker) {
    const workerId = filters.compatibleWorker;
    query = query.where('models.id', 'in', (eb) =>
      eb
        .selectFrom('model_compatible_workers')
        .select('model_compatible_workers.model_id')
        .where('model_compatible_workers.worker_id', '=', workerId),
    );
  }
  return {
    count: () => countRows(query),
    async fetch({ limit, offset }) {
      const rows = await query
        .orderBy('models.name')
        .orderBy('models.id')
        .limit(limit)
        .offset(offset)
        .execute();
      const levels = user.is_admin
        ? new Map<string, number>()
        : await levelsOn(
            db,
            user.id,
            rows.map((row) => row.id),
          );
      return rows.map((row) => modelJson(row, modelRights(user, levels.get(row.id) ?? null, row)));
    },
  };
}

/** CreateModel: the creator becomes the model's admin member. */
export async function createModel(
  db: Db,
  user: User,
  input: { name: string; description?: string | undefined },
): Promise<ModelJson> {
  await checkNameFree(db, user, input.name);
  const now = nowIso();
  const model: Model = {
    id: randomUUID(),
    name: input.name,
    description: input.description ?? '',
    public: 0,
    archived: 0,
    created: now,
    updated: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('models').values(model).execute();
    await trx
      .insertInto('model_memberships')
      .values({
        id: randomUUID(),
        model_id: model.id,
        user_id: user.id,
        level: LEVEL.admin,
        created: now,
      })
      .execute();
  });
  return modelJson(model, modelRights(user, LEVEL.admin, model));
}

export interface ModelChanges {
  name?: string | undefined;
  description?: string | undefined;
  archived?: boolean | undefined;
  public?: boolean | undefined;
}

/** PartialUpdateModel: write for name and description, admin for archived and public. */
export async function updateModel(
  db: Db,
  user: User,
  access: ModelAccess,
  changes: ModelChanges,
): Promise<ModelJson> {
  checkModelRight(access, 'write');
  const { model } = access;
  if (
    (changes.archived !== undefined && changes.archived !== (model.archived === 1)) ||
    (changes.public !== undefined && changes.public !== (model.public === 1))
  ) {
    checkModelRight(access, 'admin');
  }
  if (changes.name !== undefined && changes.name !== model.name) {
    await checkNameFree(db, user, changes.name, model.id);
  }
  const set: Partial<Model> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.archived !== undefined) set.archived = changes.archived ? 1 : 0;
  if (changes.public !== undefined) set.public = changes.public ? 1 : 0;
  if (Object.keys(set).length === 0) return modelJson(model, access.rights);
  const updated = await db
    .updateTable('models')
    .set({ ...set, updated: nowIso() })
    .where('id', '=', model.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return modelJson(updated, access.rights);
}
