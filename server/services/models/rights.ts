/**
 * Who may do what with a model. Users are members of a model at a level (guest 10, contributor
 * 50, admin 100) as of a project; site admins hold every right; a public model is readable by
 * every verified user (the routes ask for a verified e-mail before anything else). A model the
 * caller cannot read does not exist for them (404), as a project.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db';
import type { Database, Model, User } from '../../db/schema';
import { notFound, permissionDenied } from '../../errors';
import { requireUuid, rightsForLevel, type Right } from '../../permissions';

export interface ModelAccess {
  model: Model;
  rights: Right[];
  /** The caller's membership level, null for non-members (site admins included). */
  level: number | null;
}

export const MODEL_DENIED: Record<Right, string> = {
  read: 'You do not have read access to this model.',
  write: 'A contributor access level is required to edit a model',
  admin: 'An admin access level is required for this action on a model.',
};

export async function modelLevel(db: Db, userId: string, modelId: string): Promise<number | null> {
  const row = await db
    .selectFrom('model_memberships')
    .select('level')
    .where('user_id', '=', userId)
    .where('model_id', '=', modelId)
    .executeTakeFirst();
  return row?.level ?? null;
}

export function modelRights(
  user: User,
  level: number | null,
  model: Pick<Model, 'public'>,
): Right[] {
  if (user.is_admin) return ['read', 'write', 'admin'];
  return rightsForLevel(level, model.public === 1);
}

/** The model with the caller's rights, or null when unknown, not a UUID, or unreadable. */
export async function findModelAccess(
  db: Db,
  user: User,
  modelId: string,
): Promise<ModelAccess | null> {
  let id: string;
  try {
    id = requireUuid(modelId);
  } catch {
    return null;
  }
  const model = await db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
  if (!model) return null;
  const level = await modelLevel(db, user.id, model.id);
  const rights = modelRights(user, level, model);
  return rights.includes('read') ? { model, rights, level } : null;
}

export function checkModelRight(access: ModelAccess, right: Right): ModelAccess {
  if (!access.rights.includes(right)) throw permissionDenied(MODEL_DENIED[right]);
  return access;
}

/** A model named in a path: 404 when unreadable, 403 when the right is missing. */
export async function requireModelRight(
  db: Db,
  user: User,
  modelId: string,
  right: Right,
): Promise<ModelAccess> {
  const access = await findModelAccess(db, user, modelId);
  if (!access) throw notFound();
  return checkModelRight(access, right);
}

/** The ids of the models the caller can read, as a subquery to filter lists with. */
export function readableModelIds(
  db: Db,
  user: User,
): SelectQueryBuilder<Database, 'models', { id: string }> {
  const all = db.selectFrom('models').select('models.id');
  if (user.is_admin) return all;
  return all.where((eb) =>
    eb.or([
      eb('models.public', '=', 1),
      eb(
        'models.id',
        'in',
        eb
          .selectFrom('model_memberships')
          .select('model_memberships.model_id')
          .where('model_memberships.user_id', '=', user.id),
      ),
    ]),
  );
}

/** Every member's level on these models, for the `rights` of a list in one query. */
export async function levelsOn(
  db: Db,
  userId: string,
  modelIds: readonly string[],
): Promise<Map<string, number>> {
  const levels = new Map<string, number>();
  if (modelIds.length === 0) return levels;
  const rows = await db
    .selectFrom('model_memberships')
    .select(['model_id', 'level'])
    .where('user_id', '=', userId)
    .where('model_id', 'in', modelIds)
    .execute();
  for (const row of rows) levels.set(row.model_id, row.level);
  return levels;
}
