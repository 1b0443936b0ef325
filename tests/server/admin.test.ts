import { beforeAll, expect, it } from 'vitest';
import { Client, createTestUser, describeEachDialect, type TestUser } from './harness';
import { clientFor, makeCast, type Cast } from './actors';
import {
  INVALID_PAGE,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  validation,
} from './expectedErrors';

const NOT_SITE_ADMIN = denied('Only site administrators can do this.');
const LOGIN_FAILED = validation(
  'non_field_errors',
  'Unable to log in with provided credentials.',
  'authorization',
);
const INVALID_TOKEN = {
  type: 'client_error',
  errors: [{ code: 'authentication_failed', detail: 'Invalid token.', attr: null }],
};

const ROLES = {
  admin: { displayName: 'Ada Admin', email: 'ada@admin.example', admin: true },
  member: { displayName: 'Maud Member', email: 'maud@example.com' },
  other: { displayName: 'Otto Other', email: 'otto@example.com' },
};
type Role = keyof typeof ROLES;

interface AdminUser {
  id: string;
  email: string;
  display_name: string;
  is_admin: boolean;
  is_active: boolean;
  verified_email: boolean;
}

describeEachDialect('site administration', ({ t }) => {
  let cast: Cast<Role>;
  const as = (role: Role | 'anonymous') => clientFor(t().app, cast, role);

  beforeAll(async () => {
    cast = await makeCast(t().app, ROLES);
  });

  async function logIn(user: TestUser): Promise<Client> {
    const client = await new Client(t().app).prime();
    const response = await client.post('user/login/', {
      email: user.email,
      password: user.password,
    });
    expect(response.statusCode).toBe(200);
    return client;
  }

  async function patchUser(id: string, body: unknown) {
    return as('admin').patch(`admin/users/${id}/`, body);
  }

  it('answers anonymous callers 401 and users who are not site admins 403, on every route', async () => {
    const target = cast.other.id;
    const calls = [
      ['GET', 'admin/users/'],
      ['GET', `admin/users/${target}/`],
      ['PATCH', `admin/users/${target}/`],
      ['GET', 'admin/corpora/'],
    ] as const;
    // A project admin is still no site admin.
    await as('member').post('corpus/', { name: 'Maud’s project' });
    for (const [method, url] of calls) {
      const body = method === 'PATCH' ? { is_admin: true } : undefined;
      const anonymous = await as('anonymous').request(method, url, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json()).toEqual(NOT_AUTHENTICATED);
      const member = await as('member').request(method, url, body);
      expect(member.statusCode, `${method} ${url}`).toBe(403);
      expect(member.json()).toEqual(NOT_SITE_ADMIN);
    }
    const row = await t()
      .app.db.selectFrom('users')
      .select('is_admin')
      .where('id', '=', target)
      .executeTakeFirstOrThrow();
    expect(row.is_admin).toBe(0);
  });

  it('lists every account by e-mail, page by page', async () => {
    const first = await as('admin').get('admin/users/?page_size=2');
    expect(first.statusCode).toBe(200);
    const page = first.json();
    const total = (await t().app.db.selectFrom('users').select('id').execute()).length;
    expect(page.count).toBe(total);
    expect(page.results).toHaveLength(2);
    expect(page.next).toContain('page=2');
    expect(page.results[0]).toEqual({
      id: cast.admin.id,
      email: 'ada@admin.example',
      display_name: 'Ada Admin',
      is_admin: true,
      is_active: true,
      verified_email: true,
      can_manage_workers: false,
      has_usable_password: true,
      created: expect.any(String),
      last_login: null,
    });
    const emails: string[] = [];
    for (let number = 1; number <= Math.ceil(total / 2); number++) {
      const response = await as('admin').get(`admin/users/?page_size=2&page=${number}`);
      emails.push(...response.json().results.map((user: AdminUser) => user.email));
    }
    expect(emails).toEqual([...emails].sort());
    expect(emails).toHaveLength(total);
    const past = await as('admin').get(`admin/users/?page_size=2&page=${total}`);
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual(INVALID_PAGE);
  });

  it('finds accounts by part of their e-mail or name, whatever the case', async () => {
    const search = async (text: string) => {
      const response = await as('admin').get(`admin/users/?search=${encodeURIComponent(text)}`);
      expect(response.statusCode).toBe(200);
      return response.json().results.map((user: AdminUser) => user.email);
    };
    expect(await search('OTTO@')).toEqual(['otto@example.com']);
    expect(await search('maud mem')).toEqual(['maud@example.com']);
    expect(await search('example.com')).toEqual(['maud@example.com', 'otto@example.com']);
    // Wildcards are taken literally.
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
  });

  it('makes a user a site admin and takes the right back', async () => {
    const user = await createTestUser(t().app);
    const made = await patchUser(user.id, { is_admin: true });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toMatchObject({ id: user.id, is_admin: true });
    const client = new Client(t().app, user.token);
    expect((await client.get('user/')).json().is_admin).toBe(true);
    expect((await client.get('admin/users/')).statusCode).toBe(200);

    const removed = await patchUser(user.id, { is_admin: false });
    expect(removed.json()).toMatchObject({ id: user.id, is_admin: false });
    expect((await client.get('user/')).json().is_admin).toBe(false);
    expect((await client.get('admin/users/')).statusCode).toBe(403);
  });

  it('lets a user publish workers, and takes that right back', async () => {
    const user = await createTestUser(t().app);
    const client = new Client(t().app, user.token);
    const worker = {
      name: 'Line OCR',
      slug: `line-ocr-${user.id.slice(0, 8)}`,
      type: 'recognizer',
    };
    expect((await client.post('workers/', worker)).statusCode).toBe(403);
    const granted = await patchUser(user.id, { can_manage_workers: true });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ can_manage_workers: true, is_admin: false });
    expect((await client.get('user/')).json().can_manage_workers).toBe(true);
    expect((await client.post('workers/', worker)).statusCode).toBe(201);
    const revoked = await patchUser(user.id, { can_manage_workers: false });
    expect(revoked.json()).toMatchObject({ can_manage_workers: false });
    expect((await client.get('user/')).json().can_manage_workers).toBe(false);
    expect(
      (await client.post('workers/', { ...worker, slug: `${worker.slug}-2` })).statusCode,
    ).toBe(403);
    expect((await patchUser(user.id, { can_manage_workers: 'yes' })).statusCode).toBe(400);
  });

  it('marks an e-mail verified', async () => {
    const user = await createTestUser(t().app, { verified: false });
    const client = new Client(t().app, user.token);
    expect((await client.get('user/')).json().verified_email).toBe(false);
    const response = await patchUser(user.id, { verified_email: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ verified_email: true, is_admin: false });
    expect((await client.get('user/')).json().verified_email).toBe(true);
  });

  it('deactivates a user: no login, and their sessions and token stop working; reactivation lets them log in again', async () => {
    const user = await createTestUser(t().app);
    const browser = await logIn(user);
    const script = new Client(t().app, user.token);
    expect((await browser.get('user/')).statusCode).toBe(200);

    const response = await patchUser(user.id, { is_active: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, is_active: false });

    expect((await browser.get('user/')).json()).toEqual(NOT_AUTHENTICATED);
    const byToken = await script.get('user/');
    expect(byToken.statusCode).toBe(401);
    expect(byToken.json()).toEqual(INVALID_TOKEN);
    const login = await new Client(t().app)
      .prime()
      .then((client) => client.post('user/login/', { email: user.email, password: user.password }));
    expect(login.statusCode).toBe(400);
    expect(login.json()).toEqual(LOGIN_FAILED);
    const mailsBefore = t().mails.length;
    const reset = await new Client(t().app).post('user/password-reset/', { email: user.email });
    expect(reset.statusCode).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t().mails).toHaveLength(mailsBefore);

    const reactivated = await patchUser(user.id, { is_active: true });
    expect(reactivated.json()).toMatchObject({ is_active: true });
    // The sessions of before do not come back; a new login works.
    expect((await browser.get('user/')).statusCode).toBe(401);
    expect((await script.get('user/')).statusCode).toBe(200);
    const again = await logIn(user);
    expect((await again.get('user/')).json().id).toBe(user.id);
  });

  it('refuses a site admin removing their own admin right or deactivating themselves', async () => {
    const self = cast.admin.id;
    const unadmin = await patchUser(self, { is_admin: false });
    expect(unadmin.statusCode).toBe(400);
    expect(unadmin.json()).toEqual(
      validation('is_admin', 'You cannot remove your own admin rights.', 'self_admin'),
    );
    const deactivate = await patchUser(self, { is_active: false });
    expect(deactivate.statusCode).toBe(400);
    expect(deactivate.json()).toEqual(
      validation('is_active', 'You cannot deactivate your own account.', 'self_deactivation'),
    );
    const both = await patchUser(self, { is_admin: false, is_active: false });
    expect(both.json().errors.map((error: { attr: string }) => error.attr)).toEqual([
      'is_admin',
      'is_active',
    ]);
    const row = await t()
      .app.db.selectFrom('users')
      .select(['is_admin', 'is_active'])
      .where('id', '=', self)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_admin: 1, is_active: 1 });
    expect((await as('admin').get('user/')).json().is_admin).toBe(true);
    // Setting what is already so is no harm.
    expect((await patchUser(self, { is_admin: true, is_active: true })).statusCode).toBe(200);
  });

  it('answers 404 for ids that are not UUIDs or name no user, and 400 for bad values', async () => {
    for (const id of ['not-a-uuid', '12', UNKNOWN_ID]) {
      const read = await as('admin').get(`admin/users/${id}/`);
      expect(read.statusCode, id).toBe(404);
      expect(read.json()).toEqual(NOT_FOUND);
      const write = await patchUser(id, { is_admin: true });
      expect(write.statusCode, id).toBe(404);
      expect(write.json()).toEqual(NOT_FOUND);
    }
    const target = cast.other.id;
    const wrongType = await patchUser(target, { is_admin: 'yes', is_active: 1 });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toEqual({
      type: 'validation_error',
      errors: [
        { code: 'invalid', detail: 'Must be a valid boolean.', attr: 'is_admin' },
        { code: 'invalid', detail: 'Must be a valid boolean.', attr: 'is_active' },
      ],
    });
    const nullValue = await patchUser(target, { verified_email: null });
    expect(nullValue.json()).toEqual(
      validation('verified_email', 'This field may not be null.', 'null'),
    );
    const list = await patchUser(target, [true]);
    expect(list.statusCode).toBe(400);
    expect(list.json()).toEqual(
      validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
    );
    const malformed = await as('admin').patch(`admin/users/${target}/`, '{"is_admin":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].code).toBe('parse_error');
    const longSearch = await as('admin').get(`admin/users/?search=${'x'.repeat(251)}`);
    expect(longSearch.statusCode).toBe(400);
    expect(longSearch.json().errors[0]).toMatchObject({ code: 'max_length', attr: 'search' });
    const badPage = await as('admin').get('admin/corpora/?page=zero');
    expect(badPage.statusCode).toBe(404);
    expect(badPage.json()).toEqual(INVALID_PAGE);
    const row = await t()
      .app.db.selectFrom('users')
      .select(['is_admin', 'is_active', 'verified_email'])
      .where('id', '=', target)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_admin: 0, is_active: 1, verified_email: 1 });
  });

  it('lists every project, private ones included, with its member count', async () => {
    const project = (await as('other').post('corpus/', { name: 'Zebra letters' })).json();
    const joined = await as('other').post('memberships/', {
      corpus_id: project.id,
      user_email: cast.member.email,
      level: 10,
    });
    expect(joined.statusCode).toBe(201);

    const response = await as('admin').get('admin/corpora/?search=ZEBRA');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      count: 1,
      number: 1,
      next: null,
      previous: null,
      results: [
        {
          id: project.id,
          name: 'Zebra letters',
          public: false,
          created: expect.any(String),
          members: 2,
        },
      ],
    });
    const all = (await as('admin').get('admin/corpora/')).json();
    const names = all.results.map((corpus: { name: string }) => corpus.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('Zebra letters');
    expect(all.count).toBe((await t().app.db.selectFrom('corpora').select('id').execute()).length);
  });
});
