/**
 * The site administration (our extension: Arkindex does this in Django's admin). Site admins
 * list every account and change its admin right, verified e-mail and activity, and list every
 * project with its member count. An admin never removes their own right nor deactivates
 * themselves: the site could be left with nobody able to administer it.
 */
import type { Db } from '../db';
import type { User, UserUpdate } from '../db/schema';
import { deleteOtherSessions } from '../auth/sessions';
import { nowIso } from '../clock';
import { notFound, validationErrors, type ErrorItem } from '../errors';
import { countRows, type PageSource } from '../pagination';
import { requireUuid } from '../permissions';
import { containsInsensitive } from '../repositories/textSearch';

export const CANNOT_UNADMIN_SELF = 'You cannot remove your own admin rights.';
export const CANNOT_DEACTIVATE_SELF = 'You cannot deactivate your own account.';

export interface AdminUserJson {
  id: string;
  email: string;
  display_name: string;
  is_admin: boolean;
  is_active: boolean;
  verified_email: boolean;
  can_manage_workers: boolean;
  has_usable_password: boolean;
  created: string;
  last_login: string | null;
}

export interface AdminCorpusJson {
  id: string;
  name: string;
  public: boolean;
  created: string;
  members: number;
}

export interface AdminUserChanges {
  is_admin?: boolean | undefined;
  verified_email?: boolean | undefined;
  is_active?: boolean | undefined;
  can_manage_workers?: boolean | undefined;
}

function adminUserJson(user: User): AdminUserJson {
  return {
    id: user.id,
    email: user.email,
    display_name: user.display_name,
    is_admin: user.is_admin === 1,
    is_active: user.is_active === 1,
    verified_email: user.verified_email === 1,
    can_manage_workers: user.can_manage_workers === 1,
    has_usable_password: user.password_hash !== null,
    created: user.created,
    last_login: user.last_login,
  };
}

/** Every account, by e-mail; `search` keeps those whose e-mail or name contains it. */
export function adminUserSource(db: Db, search: string | undefined): PageSource<AdminUserJson> {
  const base = () => {
    const users = db.selectFrom('users');
    if (!search) return users;
    return users.where((eb) =>
      eb.or([
        containsInsensitive(eb.ref('users.email'), search),
        containsInsensitive(eb.ref('users.display_name'), search),
      ]),
    );
  };
  return {
    count: () => countRows(base().select('users.id')),
    async fetch({ limit, offset }) {
      const rows = await base()
        .selectAll()
        .orderBy('users.email')
        .orderBy('users.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(adminUserJson);
    },
  };
}

/** Every project, by name, with its member count; `search` keeps names containing it. */
export function adminCorpusSource(db: Db, search: string | undefined): PageSource<AdminCorpusJson> {
  const base = () => {
    const corpora = db.selectFrom('corpora');
    return search
      ? corpora.where((eb) => containsInsensitive(eb.ref('corpora.name'), search))
      : corpora;
  };
  return {
    count: () => countRows(base().select('corpora.id')),
    async fetch({ limit, offset }) {
      const rows = await base()
        .select(['corpora.id', 'corpora.name', 'corpora.public', 'corpora.created'])
        .select((eb) =>
          eb
            .selectFrom('memberships')
            .select((inner) => inner.fn.countAll().as('count'))
            .whereRef('memberships.corpus_id', '=', 'corpora.id')
            .as('members'),
        )
        // Groups given the project count as one entry each, as its members list shows them.
        .select((eb) =>
          eb
            .selectFrom('corpus_groups')
            .select((inner) => inner.fn.countAll().as('count'))
            .whereRef('corpus_groups.corpus_id', '=', 'corpora.id')
            .as('groups'),
        )
        .orderBy('corpora.name')
        .orderBy('corpora.id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        public: row.public === 1,
        created: row.created,
        // PostgreSQL counts are bigints, which pg hands over as strings.
        members: Number(row.members ?? 0) + Number(row.groups ?? 0),
      }));
    },
  };
}

async function findUser(db: Db, id: string): Promise<User> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!user) throw notFound();
  return user;
}

export async function getAdminUser(db: Db, id: string): Promise<AdminUserJson> {
  return adminUserJson(await findUser(db, id));
}

/**
 * Changes an account's admin right, verified e-mail or activity. Deactivating ends its
 * sessions at once, so a later reactivation does not bring them back.
 */
export async function updateAdminUser(
  db: Db,
  actor: User,
  id: string,
  changes: AdminUserChanges,
): Promise<AdminUserJson> {
  const user = await findUser(db, id);
  const errors: ErrorItem[] = [];
  if (user.id === actor.id && changes.is_admin === false) {
    errors.push({ code: 'self_admin', detail: CANNOT_UNADMIN_SELF, attr: 'is_admin' });
  }
  if (user.id === actor.id && changes.is_active === false) {
    errors.push({ code: 'self_deactivation', detail: CANNOT_DEACTIVATE_SELF, attr: 'is_active' });
  }
  if (errors.length) throw validationErrors(errors);

  const update: UserUpdate = {};
  if (changes.is_admin !== undefined) update.is_admin = changes.is_admin ? 1 : 0;
  if (changes.verified_email !== undefined) update.verified_email = changes.verified_email ? 1 : 0;
  if (changes.is_active !== undefined) update.is_active = changes.is_active ? 1 : 0;
  if (changes.can_manage_workers !== undefined)
    update.can_manage_workers = changes.can_manage_workers ? 1 : 0;
  if (Object.keys(update).length === 0) return adminUserJson(user);

  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ ...update, updated: nowIso() })
      .where('id', '=', user.id)
      .execute();
    if (changes.is_active === false) await deleteOtherSessions(trx, user.id, null);
  });
  return getAdminUser(db, user.id);
}
