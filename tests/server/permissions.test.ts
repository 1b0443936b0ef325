import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Corpus, User } from '../../server/db/schema';
import { ApiError } from '../../server/errors';
import {
  LEVEL,
  canCreateCorpus,
  findCorpusAccess,
  readableCorpusIds,
  requireCanChangeMembership,
  requireCanListMembers,
  requireCorpusRight,
  requireUuid,
  rightsFor,
  rightsForLevel,
  type CorpusAccess,
} from '../../server/permissions';
import { createTestUser, describeEachDialect } from './harness';

function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: randomUUID(),
    email: 'someone@example.com',
    display_name: 'Someone',
    password_hash: null,
    is_admin: 0,
    is_active: 1,
    verified_email: 1,
    can_manage_workers: 0,
    can_ingest: 0,
    auth_token: 'token',
    last_login: null,
    created: '2024-01-01T00:00:00.000Z',
    updated: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function makeCorpus(overrides: Partial<Corpus> = {}): Corpus {
  return {
    id: randomUUID(),
    name: 'Corpus',
    description: '',
    public: 0,
    indexable: 0,
    top_level_type: null,
    created: '2024-01-01T00:00:00.000Z',
    updated: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function statusOf(run: () => unknown): number | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.statusCode;
    throw error;
  }
}

async function asyncStatusOf(run: () => Promise<unknown>): Promise<number | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.statusCode;
    throw error;
  }
}

describe('rightsFor', () => {
  const privateCorpus = { public: 0 as const };
  const publicCorpus = { public: 1 as const };

  it.each([
    [null, [], ['read']],
    [LEVEL.guest, ['read'], ['read']],
    [LEVEL.contributor, ['read', 'write'], ['read', 'write']],
    [LEVEL.admin, ['read', 'write', 'admin'], ['read', 'write', 'admin']],
  ])(
    'gives a member at level %s %j on a private and %j on a public corpus',
    (level, onPrivate, onPublic) => {
      const user = makeUser();
      expect(rightsFor(user, level, privateCorpus)).toEqual(onPrivate);
      expect(rightsFor(user, level, publicCorpus)).toEqual(onPublic);
    },
  );

  it('gives site admins every right, member or not, public or not', () => {
    const admin = makeUser({ is_admin: 1 });
    for (const level of [null, LEVEL.guest, LEVEL.contributor]) {
      expect(rightsFor(admin, level, privateCorpus)).toEqual(['read', 'write', 'admin']);
      expect(rightsFor(admin, level, publicCorpus)).toEqual(['read', 'write', 'admin']);
    }
  });

  it('gives anonymous callers read on public corpora only, ignoring any level passed', () => {
    expect(rightsFor(null, null, publicCorpus)).toEqual(['read']);
    expect(rightsFor(null, null, privateCorpus)).toEqual([]);
    expect(rightsFor(null, LEVEL.admin, privateCorpus)).toEqual([]);
  });

  it('does not tie rights to a verified e-mail', () => {
    expect(rightsFor(makeUser({ verified_email: 0 }), LEVEL.contributor, privateCorpus)).toEqual([
      'read',
      'write',
    ]);
  });

  it('treats levels between the named ones as the level below', () => {
    expect(rightsForLevel(49, false)).toEqual(['read']);
    expect(rightsForLevel(99, false)).toEqual(['read', 'write']);
    expect(rightsForLevel(5, false)).toEqual([]);
  });
});

describe('requireUuid', () => {
  it('accepts UUIDs in either case and answers them lower-cased', () => {
    expect(requireUuid('3F0C2A7E-1B4D-4C8E-9A6F-0D2E5B7C9A11')).toBe(
      '3f0c2a7e-1b4d-4c8e-9a6f-0d2e5b7c9a11',
    );
  });

  it.each(['', 'abc', '3f0c2a7e1b4d4c8e9a6f0d2e5b7c9a11', '3f0c2a7e-1b4d-4c8e-9a6f-0d2e5b7c9a11x'])(
    'answers 404 to %j',
    (id) => {
      expect(statusOf(() => requireUuid(id))).toBe(404);
    },
  );
});

describe('canCreateCorpus', () => {
  it('needs a verified e-mail or a site admin', () => {
    expect(canCreateCorpus(null)).toBe(false);
    expect(canCreateCorpus(makeUser({ verified_email: 0 }))).toBe(false);
    expect(canCreateCorpus(makeUser({ verified_email: 1 }))).toBe(true);
    expect(canCreateCorpus(makeUser({ verified_email: 0, is_admin: 1 }))).toBe(true);
  });
});

describe('membership rules', () => {
  const corpus = makeCorpus({ public: 1 });
  const access = (level: number | null, isAdmin = false): CorpusAccess => ({
    corpus,
    level,
    rights: rightsFor(makeUser({ is_admin: isAdmin ? 1 : 0 }), level, corpus),
  });

  it('shows the member list to members and site admins only', () => {
    const user = makeUser();
    expect(statusOf(() => requireCanListMembers(user, access(LEVEL.guest)))).toBeNull();
    expect(
      statusOf(() => requireCanListMembers(makeUser({ is_admin: 1 }), access(null, true))),
    ).toBeNull();
    expect(statusOf(() => requireCanListMembers(user, access(null)))).toBe(403);
    expect(statusOf(() => requireCanListMembers(null, access(null)))).toBe(401);
  });

  it('lets admins change any membership and members delete only their own', () => {
    const user = makeUser();
    const own = { user_id: user.id };
    const other = { user_id: randomUUID() };
    expect(
      statusOf(() => requireCanChangeMembership(user, access(LEVEL.admin), other, 'update')),
    ).toBeNull();
    expect(
      statusOf(() => requireCanChangeMembership(user, access(LEVEL.admin), other, 'delete')),
    ).toBeNull();
    expect(
      statusOf(() => requireCanChangeMembership(user, access(LEVEL.guest), own, 'delete')),
    ).toBeNull();
    expect(
      statusOf(() => requireCanChangeMembership(user, access(LEVEL.guest), own, 'update')),
    ).toBe(403);
    expect(
      statusOf(() => requireCanChangeMembership(user, access(LEVEL.contributor), other, 'delete')),
    ).toBe(403);
  });
});

describeEachDialect('corpus access from the database', ({ t }) => {
  let member: User;
  let outsider: User;
  let siteAdmin: User;
  let privateCorpus: Corpus;
  let publicCorpus: Corpus;

  async function loadUser(id: string): Promise<User> {
    return t()
      .app.db.selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    const app = t().app;
    member = await loadUser((await createTestUser(app)).id);
    outsider = await loadUser((await createTestUser(app)).id);
    siteAdmin = await loadUser((await createTestUser(app, { admin: true })).id);
    privateCorpus = makeCorpus({ name: 'Private' });
    publicCorpus = makeCorpus({ name: 'Public', public: 1 });
    await app.db.insertInto('corpora').values([privateCorpus, publicCorpus]).execute();
    await app.db
      .insertInto('memberships')
      .values({
        id: randomUUID(),
        corpus_id: privateCorpus.id,
        user_id: member.id,
        level: LEVEL.contributor,
        created: '2024-01-01T00:00:00.000Z',
      })
      .execute();
  });

  it('finds the corpus with the rights and level of a member', async () => {
    const access = await findCorpusAccess(t().app.db, member, privateCorpus.id.toUpperCase());
    expect(access).toEqual({
      corpus: privateCorpus,
      rights: ['read', 'write'],
      level: LEVEL.contributor,
    });
  });

  it('finds nothing for unreadable, unknown or malformed ids', async () => {
    const db = t().app.db;
    expect(await findCorpusAccess(db, outsider, privateCorpus.id)).toBeNull();
    expect(await findCorpusAccess(db, null, privateCorpus.id)).toBeNull();
    expect(await findCorpusAccess(db, member, randomUUID())).toBeNull();
    expect(await findCorpusAccess(db, member, 'not-a-uuid')).toBeNull();
  });

  it('answers 404 when unreadable and 403 when a readable corpus lacks the right', async () => {
    const db = t().app.db;
    expect(
      await asyncStatusOf(() => requireCorpusRight(db, outsider, privateCorpus.id, 'read')),
    ).toBe(404);
    expect(
      await asyncStatusOf(() => requireCorpusRight(db, member, privateCorpus.id, 'admin')),
    ).toBe(403);
    expect(
      await asyncStatusOf(() => requireCorpusRight(db, outsider, publicCorpus.id, 'write')),
    ).toBe(403);
    expect(
      await asyncStatusOf(() => requireCorpusRight(db, member, privateCorpus.id, 'write')),
    ).toBeNull();
    expect(
      await asyncStatusOf(() => requireCorpusRight(db, siteAdmin, privateCorpus.id, 'admin')),
    ).toBeNull();
  });

  it('selects the readable corpus ids for each kind of caller', async () => {
    const db = t().app.db;
    const ids = async (user: User | null) =>
      (await readableCorpusIds(db, user).execute()).map((row) => row.id).sort();
    expect(await ids(null)).toEqual([publicCorpus.id]);
    expect(await ids(outsider)).toEqual([publicCorpus.id]);
    expect(await ids(member)).toEqual([privateCorpus.id, publicCorpus.id].sort());
    expect(await ids(siteAdmin)).toEqual([privateCorpus.id, publicCorpus.id].sort());
  });
});
