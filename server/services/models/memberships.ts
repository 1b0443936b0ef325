/**
 * Who belongs to a model and at which level, through the same membership API as projects
 * (`model_id` in place of `corpus_id`). Model admins manage the list, members may leave, and a
 * model never loses its last admin.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import type { ModelMembership, User } from '../../db/schema';
import {
  conflict,
  invalidPk,
  notAuthenticated,
  notFound,
  permissionDenied,
  validationError,
} from '../../errors';
import { countRows, type PageSource } from '../../pagination';
import { LEVEL } from '../../permissions';
import { isUniqueViolation } from '../../repositories/constraints';
import type { MembershipJson } from '../memberships';
import { checkModelRight, findModelAccess, requireModelRight } from './rights';

const LAST_ADMIN = 'A model must keep at least one admin.';

function selectMemberships(db: Db) {
  return db
    .selectFrom('model_memberships')
    .innerJoin('users', 'users.id', 'model_memberships.user_id')
    .select([
      'model_memberships.id',
      'model_memberships.level',
      'model_memberships.created',
      'users.id as user_id',
      'users.email',
      'users.display_name',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectMemberships>['executeTakeFirstOrThrow']>>;

function membershipJson(row: Row): MembershipJson {
  return {
    id: row.id,
    level: row.level,
    created: row.created,
    user: { id: row.user_id, email: row.email, display_name: row.display_name },
  };
}

async function membershipById(db: Db, id: string): Promise<MembershipJson> {
  const row = await selectMemberships(db).where('model_memberships.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return membershipJson(row);
}

export async function findModelMembership(
  db: Db,
  id: string,
): Promise<ModelMembership | undefined> {
  return db.selectFrom('model_memberships').selectAll().where('id', '=', id).executeTakeFirst();
}

/** ListModelMemberships: e-mail addresses are shown, so members and site admins only. */
export async function modelMembershipPages(
  db: Db,
  user: User | null,
  modelId: string,
): Promise<PageSource<MembershipJson>> {
  if (!user) throw notAuthenticated();
  const access = await requireModelRight(db, user, modelId, 'read');
  if (!user.is_admin && access.level === null) {
    throw permissionDenied('Only members of this model can see its members.');
  }
  const query = selectMemberships(db).where('model_memberships.model_id', '=', access.model.id);
  return {
    count: () => countRows(query),
    async fetch({ limit, offset }) {
      const rows = await query
        .orderBy('model_memberships.level', 'desc')
        .orderBy('users.display_name')
        .orderBy('users.email')
        .orderBy('model_memberships.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(membershipJson);
    },
  };
}

export async function createModelMembership(
  db: Db,
  user: User,
  input: { model_id: string; user_email: string; level: number },
): Promise<MembershipJson> {
  const access = await findModelAccess(db, user, input.model_id);
  if (!access) throw invalidPk('model_id', input.model_id);
  checkModelRight(access, 'admin');
  const member = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', input.user_email.toLowerCase()))
    .executeTakeFirst();
  if (!member) {
    throw validationError(
      'user_email',
      'No user with this email address exists.',
      'does_not_exist',
    );
  }
  const alreadyMember = async () => {
    const existing = await db
      .selectFrom('model_memberships')
      .select('id')
      .where('model_id', '=', access.model.id)
      .where('user_id', '=', member.id)
      .executeTakeFirst();
    return existing ? conflict('This user is already a member of this model.', existing.id) : null;
  };
  const existing = await alreadyMember();
  if (existing) throw existing;
  const id = randomUUID();
  try {
    await db
      .insertInto('model_memberships')
      .values({
        id,
        model_id: access.model.id,
        user_id: member.id,
        level: input.level,
        created: nowIso(),
      })
      .execute();
  } catch (error) {
    const raced = isUniqueViolation(error) ? await alreadyMember() : null;
    throw raced ?? error;
  }
  return membershipById(db, id);
}

/** 404 when the caller cannot read the model; 403 unless admin (or leaving, for a delete). */
export async function requireModelMembershipChange(
  db: Db,
  user: User,
  membership: ModelMembership,
  action: 'update' | 'delete',
): Promise<void> {
  const access = await findModelAccess(db, user, membership.model_id);
  if (!access) throw notFound();
  if (action === 'delete' && membership.user_id === user.id) return;
  checkModelRight(access, 'admin');
}

/** A no-op update locks the model's row on PostgreSQL, so two admins cannot demote each other. */
async function lockModel(db: Db, modelId: string): Promise<void> {
  await db
    .updateTable('models')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', modelId)
    .execute();
}

async function otherAdmins(db: Db, membership: ModelMembership): Promise<number> {
  const row = await db
    .selectFrom('model_memberships')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('model_id', '=', membership.model_id)
    .where('level', '>=', LEVEL.admin)
    .where('id', '!=', membership.id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function updateModelMembership(
  db: Db,
  membership: ModelMembership,
  changes: { level?: number | undefined },
): Promise<MembershipJson> {
  const { level } = changes;
  if (level !== undefined && level !== membership.level) {
    await db.transaction().execute(async (trx) => {
      await lockModel(trx, membership.model_id);
      const current = await findModelMembership(trx, membership.id);
      if (!current) throw notFound();
      if (
        current.level >= LEVEL.admin &&
        level < LEVEL.admin &&
        (await otherAdmins(trx, current)) === 0
      ) {
        throw validationError('level', LAST_ADMIN, 'last_admin');
      }
      await trx
        .updateTable('model_memberships')
        .set({ level })
        .where('id', '=', current.id)
        .execute();
    });
  }
  return membershipById(db, membership.id);
}

export async function deleteModelMembership(db: Db, membership: ModelMembership): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockModel(trx, membership.model_id);
    const current = await findModelMembership(trx, membership.id);
    if (!current) throw notFound();
    if (current.level >= LEVEL.admin && (await otherAdmins(trx, current)) === 0) {
      throw validationError('non_field_errors', LAST_ADMIN, 'last_admin');
    }
    await trx.deleteFrom('model_memberships').where('id', '=', current.id).execute();
  });
}
