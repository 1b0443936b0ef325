import { afterEach, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  Client,
  DEFAULT_FEATURES,
  createTestUser,
  describeEachDialect,
  type TestApp,
} from './harness';
import { NOT_AUTHENTICATED, validation } from './expectedErrors';
import type { MailMessage } from '../../server/mail';

const LOGIN_FAILED = validation(
  'non_field_errors',
  'Unable to log in with provided credentials.',
  'authorization',
);

function postLogin(client: Client, email: string, password: string) {
  return client.post('user/login/', { email, password });
}

function signUp(client: Client, email: unknown, password: string, displayName: string) {
  return client.post('user/new/', { email, password, display_name: displayName });
}

function confirmReset(client: Client, uidb64: unknown, token: unknown, password: string) {
  return client.post('user/password-reset/confirm/', { uidb64, token, password });
}

async function logIn(app: FastifyInstance, email: string, password: string): Promise<Client> {
  const client = await new Client(app).prime();
  const response = await postLogin(client, email, password);
  expect(response.statusCode).toBe(200);
  return client;
}

/** The only line of a mail that is a link. */
function linkIn(mail: MailMessage): URL {
  const lines = mail.text.split('\n').filter((line) => /^https?:\/\//.test(line));
  expect(lines).toHaveLength(1);
  return new URL(lines[0]!);
}

/** The one mail sent since there were `before`. */
function mailSince(t: () => TestApp, before: number): MailMessage {
  expect(t().mails).toHaveLength(before + 1);
  return t().mails.at(-1)!;
}

async function userRow(t: () => TestApp, email: string) {
  return t().app.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

async function dropPassword(t: () => TestApp, userId: string): Promise<void> {
  await t()
    .app.db.updateTable('users')
    .set({ password_hash: null })
    .where('id', '=', userId)
    .execute();
}

async function sessionsOf(t: () => TestApp, userId: string) {
  return t().app.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
}

describeEachDialect('User calls', ({ t }) => {
  // Each test starts with no recorded login failure, so one test's failures never throttle another.
  afterEach(async () => {
    await t().app.db.deleteFrom('login_failures').execute();
  });

  it.each([
    ['GET', undefined],
    ['DELETE', undefined],
    ['PATCH', { display_name: 'Nobody' }],
  ] as const)('%s /user/ answers 401 to an anonymous visitor', async (method, body) => {
    // A browser sends unsafe calls with the CSRF cookie: the 401 must be for the missing login.
    const client = method === 'GET' ? new Client(t().app) : await new Client(t().app).prime();
    const response = await client.request(method, 'user/', body);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(NOT_AUTHENTICATED);
  });

  it('GET /user/ gives the whole user object to a session and to a token', async () => {
    const user = await createTestUser(t().app, { displayName: 'Ada', verified: false });
    const expected = {
      id: user.id,
      email: user.email,
      display_name: 'Ada',
      is_admin: false,
      verified_email: false,
      has_usable_password: true,
      can_manage_workers: false,
      can_ingest: false,
      features: DEFAULT_FEATURES,
      auth_token: user.token,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    };
    const session = await logIn(t().app, user.email, user.password);
    const bySession = await session.get('user/');
    expect(bySession.statusCode).toBe(200);
    expect(bySession.json()).toEqual(expected);

    const byToken = await new Client(t().app, user.token).get('user/');
    expect(byToken.statusCode).toBe(200);
    expect(byToken.json()).toEqual(expected);
  });

  it('reports admins and accounts without a usable password', async () => {
    const admin = await createTestUser(t().app, { admin: true });
    expect((await new Client(t().app, admin.token).get('user/')).json().is_admin).toBe(true);

    const resetOnly = await createTestUser(t().app);
    await dropPassword(t, resetOnly.id);
    const body = (await new Client(t().app, resetOnly.token).get('user/')).json();
    expect(body.has_usable_password).toBe(false);
  });

  it('POST /user/login/ logs in, returns the user with its token, records last_login', async () => {
    const user = await createTestUser(t().app);
    const client = await new Client(t().app).prime();
    const response = await postLogin(client, `  ${user.email.toUpperCase()} `, user.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: user.id,
      email: user.email,
      auth_token: user.token,
    });
    expect(client.cookie('folia_session')).toBeTruthy();
    expect((await client.get('user/')).json().id).toBe(user.id);
    const row = await userRow(t, user.email);
    expect(row?.last_login).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('POST /user/login/ fails the same way for an unknown e-mail, a wrong password and no password', async () => {
    const user = await createTestUser(t().app);
    const noPassword = await createTestUser(t().app);
    await dropPassword(t, noPassword.id);
    const client = new Client(t().app);
    const attempts = [
      { email: 'nobody@example.com', password: user.password },
      { email: user.email, password: 'wrong password' },
      { email: noPassword.email, password: noPassword.password },
    ];
    for (const attempt of attempts) {
      const response = await client.post('user/login/', attempt);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(LOGIN_FAILED);
    }
    expect(client.cookie('folia_session')).toBeUndefined();
  });

  it('POST /user/login/ rejects bad input with the field named', async () => {
    const client = new Client(t().app);
    const missing = await client.post('user/login/', { password: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(validation('email', 'This field is required.', 'required'));

    const wrongType = await client.post('user/login/', { email: 5, password: 'x' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toEqual(validation('email', 'Not a valid string.'));

    const malformed = await client.post('user/login/', '{"email": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].code).toBe('parse_error');

    const notObject = await client.post('user/login/', '["a"]');
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json().errors[0].attr).toBe('non_field_errors');

    const empty = await postLogin(client, '', '');
    expect(empty.statusCode).toBe(400);
    expect(
      empty
        .json()
        .errors.map((e: { attr: string }) => e.attr)
        .sort(),
    ).toEqual(['email', 'password']);
  });

  it('DELETE /user/ ends the session', async () => {
    const user = await createTestUser(t().app);
    const client = await logIn(t().app, user.email, user.password);
    expect(await sessionsOf(t, user.id)).toHaveLength(1);

    const response = await client.delete('user/');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(client.cookie('folia_session')).toBeUndefined();
    expect((await client.get('user/')).statusCode).toBe(401);
    expect(await sessionsOf(t, user.id)).toHaveLength(0);
  });

  it('PATCH /user/ changes the display name, trimmed', async () => {
    const user = await createTestUser(t().app);
    const client = await logIn(t().app, user.email, user.password);
    const response = await client.patch('user/', { display_name: '  Grace Hopper ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, display_name: 'Grace Hopper' });
    expect((await userRow(t, user.email))?.display_name).toBe('Grace Hopper');
  });

  it('PATCH /user/ refuses blank, overlong and mistyped display names', async () => {
    const user = await createTestUser(t().app, { displayName: 'Before' });
    const client = new Client(t().app, user.token);
    const blank = await client.patch('user/', { display_name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual(
      validation('display_name', 'This field may not be blank.', 'blank'),
    );
    const long = await client.patch('user/', { display_name: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual(
      validation(
        'display_name',
        'Ensure this field has no more than 120 characters.',
        'max_length',
      ),
    );
    const typed = await client.patch('user/', { display_name: 5 });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().errors[0].attr).toBe('display_name');
    expect((await userRow(t, user.email))?.display_name).toBe('Before');
  });

  it('PATCH /user/ needs the CSRF header from a session but not from a token', async () => {
    const user = await createTestUser(t().app, { displayName: 'Unchanged' });
    const client = await logIn(t().app, user.email, user.password);
    const response = await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/user/',
      payload: { display_name: 'Forged' },
      headers: {
        cookie: `folia_session=${client.cookie('folia_session')}; arkindex.csrf=${client.cookie('arkindex.csrf')}`,
      },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'permission_denied',
          detail: 'CSRF Failed: CSRF token missing or incorrect.',
          attr: null,
        },
      ],
    });
    expect((await userRow(t, user.email))?.display_name).toBe('Unchanged');

    const byToken = await new Client(t().app, user.token).patch('user/', {
      display_name: 'Script',
    });
    expect(byToken.statusCode).toBe(200);
    expect(byToken.json().display_name).toBe('Script');
  });

  it('PATCH /user/ changes the password: other sessions end, this one stays', async () => {
    const user = await createTestUser(t().app);
    const here = await logIn(t().app, user.email, user.password);
    const elsewhere = await logIn(t().app, user.email, user.password);
    const response = await here.patch('user/', {
      password: 'a brand new secret',
      current_password: user.password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(user.id);
    expect((await here.get('user/')).statusCode).toBe(200);
    expect((await elsewhere.get('user/')).statusCode).toBe(401);

    const old = await postLogin(new Client(t().app), user.email, user.password);
    expect(old.statusCode).toBe(400);
    await logIn(t().app, user.email, 'a brand new secret');
  });

  it('PATCH /user/ needs the right current password and a good new one, storing nothing otherwise', async () => {
    const user = await createTestUser(t().app, { displayName: 'Kept' });
    const client = await logIn(t().app, user.email, user.password);
    const before = (await userRow(t, user.email))?.password_hash;

    const missing = await client.patch('user/', { password: 'another secret' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(
      validation('current_password', 'This field is required.', 'required'),
    );

    const wrong = await client.patch('user/', {
      display_name: 'Changed',
      password: 'another secret',
      current_password: 'not it at all',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(
      validation('current_password', 'Your current password is incorrect.'),
    );

    const weak = await client.patch('user/', {
      password: '1234567',
      current_password: user.password,
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({
      type: 'validation_error',
      errors: [
        {
          code: 'password_too_short',
          detail: 'This password is too short. It must contain at least 8 characters.',
          attr: 'password',
        },
        {
          code: 'password_entirely_numeric',
          detail: 'This password is entirely numeric.',
          attr: 'password',
        },
      ],
    });
    const row = await userRow(t, user.email);
    expect(row?.password_hash).toBe(before);
    expect(row?.display_name).toBe('Kept');
  });

  it('PATCH /user/ lets an account without a password set one without current_password', async () => {
    const user = await createTestUser(t().app);
    await dropPassword(t, user.id);
    const response = await new Client(t().app, user.token).patch('user/', {
      password: 'finally a password',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().has_usable_password).toBe(true);
    await logIn(t().app, user.email, 'finally a password');
  });

  it('POST /user/new/ creates an unverified user, logs them in and sends the verification mail', async () => {
    const client = await new Client(t().app).prime();
    const mailsBefore = t().mails.length;
    const response = await signUp(
      client,
      ' New.Person@Example.COM ',
      'a fine passphrase',
      ' New Person ',
    );
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'new.person@example.com',
      display_name: 'New Person',
      is_admin: false,
      verified_email: false,
      has_usable_password: true,
      can_manage_workers: false,
      can_ingest: false,
      features: DEFAULT_FEATURES,
      auth_token: expect.stringMatching(/^[0-9a-f]{40}$/),
      created: expect.any(String),
    });
    expect((await client.get('user/')).json().id).toBe(body.id);

    const mail = mailSince(t, mailsBefore);
    expect(mail.to).toBe('new.person@example.com');
    expect(mail.subject).toBe('Verify your email address on Folia');
    const link = linkIn(mail);
    expect(link.pathname).toBe('/user/verify-email/');
    expect(link.searchParams.get('uidb64')).toBeTruthy();
    expect(link.searchParams.get('token')).toBeTruthy();

    await logIn(t().app, 'new.person@example.com', 'a fine passphrase');
  });

  it('POST /user/new/ refuses a used e-mail, whatever its case', async () => {
    const user = await createTestUser(t().app);
    const response = await signUp(
      new Client(t().app),
      user.email.toUpperCase(),
      'a fine passphrase',
      'Copycat',
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      validation('email', 'A user with this email already exists.', 'unique'),
    );
    const rows = await t()
      .app.db.selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('POST /user/new/ applies the password rules', async () => {
    const client = new Client(t().app);
    const cases: [string, string, string][] = [
      [
        'short1',
        'password_too_short',
        'This password is too short. It must contain at least 8 characters.',
      ],
      ['8675309123', 'password_entirely_numeric', 'This password is entirely numeric.'],
      ['my-margaret-pass', 'password_too_similar', 'This password is too similar to the email.'],
    ];
    for (const [password, code, detail] of cases) {
      const response = await signUp(client, 'margaret@example.com', password, 'Margaret');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation('password', detail, code));
    }
    expect(await userRow(t, 'margaret@example.com')).toBeUndefined();
  });

  it('POST /user/new/ rejects bad input with the field named and stores nothing', async () => {
    const client = new Client(t().app);
    const mailsBefore = t().mails.length;
    const invalid = await signUp(client, 'not an email', 'a fine passphrase', 'X');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual(validation('email', 'Enter a valid email address.'));

    const typed = await signUp(client, 5, 'a fine passphrase', 'X');
    expect(typed.statusCode).toBe(400);
    expect(typed.json()).toEqual(validation('email', 'Not a valid string.'));

    const missing = await client.post('user/new/', { email: 'someone@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([
      { code: 'required', detail: 'This field is required.', attr: 'password' },
      { code: 'required', detail: 'This field is required.', attr: 'display_name' },
    ]);

    const malformed = await client.post('user/new/', '{email');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().type).toBe('client_error');
    expect(malformed.json().errors[0].code).toBe('parse_error');

    expect(await userRow(t, 'someone@example.com')).toBeUndefined();
    expect(t().mails).toHaveLength(mailsBefore);
  });

  it('registration then the mailed link verifies the e-mail, once', async () => {
    const client = await new Client(t().app).prime();
    const created = await signUp(client, 'verify.me@example.com', 'a fine passphrase', 'Verify Me');
    expect(created.statusCode).toBe(201);
    const link = linkIn(t().mails.at(-1)!);
    const params = Object.fromEntries(link.searchParams);

    const tampered = await new Client(t().app).post('user/verify-email/', {
      ...params,
      token: params.token!.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toEqual(
      validation('token', 'The verification link is invalid or has expired.'),
    );

    // Opened in another browser, logged out: verified, but the API token is not handed out.
    const anonymous = await new Client(t().app).post('user/verify-email/', params);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toMatchObject({
      email: 'verify.me@example.com',
      verified_email: true,
    });
    expect(anonymous.json()).not.toHaveProperty('auth_token');
    expect((await client.get('user/')).json().verified_email).toBe(true);

    const again = await client.post('user/verify-email/', params);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(
      validation(null, 'Your email address is already verified.', 'already_verified'),
    );
  });

  it('POST /user/verify-email/ refuses unknown uids and bad input', async () => {
    const client = new Client(t().app);
    const unknown = await client.post('user/verify-email/', {
      uidb64: 'bm9ib2R5',
      token: 'abc-def',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(
      validation('token', 'The verification link is invalid or has expired.'),
    );
    const garbage = await client.post('user/verify-email/', { uidb64: '!!', token: '' });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().errors[0].attr).toBe('token');
    const missing = await client.post('user/verify-email/', { token: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(validation('uidb64', 'This field is required.', 'required'));
  });

  it('POST /user/verify-email/send/ mails a fresh link to an unverified user only', async () => {
    const anonymous = await new Client(t().app)
      .prime()
      .then((c) => c.post('user/verify-email/send/'));
    expect(anonymous.statusCode).toBe(401);

    const verified = await createTestUser(t().app);
    const refused = await new Client(t().app, verified.token).post('user/verify-email/send/');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { code: 'already_verified', detail: 'Your email address is already verified.', attr: null },
    ]);

    const user = await createTestUser(t().app, { verified: false });
    const client = await logIn(t().app, user.email, user.password);
    const mailsBefore = t().mails.length;
    const sent = await client.post('user/verify-email/send/');
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toEqual({});
    const mail = mailSince(t, mailsBefore);
    expect(mail.to).toBe(user.email);
    const params = Object.fromEntries(linkIn(mail).searchParams);
    const response = await client.post('user/verify-email/', params);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ verified_email: true, auth_token: user.token });
  });

  it('password reset: mailed link, new password, old one refused, link single use', async () => {
    const user = await createTestUser(t().app);
    const stale = await logIn(t().app, user.email, user.password);
    const mailsBefore = t().mails.length;
    const asked = await new Client(t().app).post(
      'user/password-reset/',
      { email: user.email.toUpperCase() },
      { host: 'folia.example.org' },
    );
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toEqual({});
    const mail = mailSince(t, mailsBefore);
    expect(mail.to).toBe(user.email);
    expect(mail.subject).toBe('Reset your password on Folia');
    const link = linkIn(mail);
    expect(link.origin).toBe('http://folia.example.org');
    const match = /^\/user\/reset\/([\w-]+)\/([\w-]+)$/.exec(link.pathname);
    expect(match).not.toBeNull();
    const [, uidb64, token] = match!;

    const client = new Client(t().app);
    const weak = await confirmReset(client, uidb64, token, '12345678');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual(
      validation('password', 'This password is entirely numeric.', 'password_entirely_numeric'),
    );

    const done = await confirmReset(client, uidb64, token, 'reset and renewed');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({});
    expect((await stale.get('user/')).statusCode).toBe(401);

    const old = await postLogin(client, user.email, user.password);
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual(LOGIN_FAILED);
    await logIn(t().app, user.email, 'reset and renewed');

    const reused = await confirmReset(client, uidb64, token, 'a third password');
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual(
      validation('token', 'The password reset link is invalid or has expired.'),
    );
    await logIn(t().app, user.email, 'reset and renewed');
  });

  it('password reset answers the same for unknown e-mails and sends nothing', async () => {
    const mailsBefore = t().mails.length;
    const response = await new Client(t().app).post('user/password-reset/', {
      email: 'ghost@example.com',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({});
    expect(t().mails).toHaveLength(mailsBefore);

    const invalid = await new Client(t().app).post('user/password-reset/', { email: 'ghost' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual(validation('email', 'Enter a valid email address.'));
  });

  it('password reset confirm refuses forged links and bad input', async () => {
    const user = await createTestUser(t().app);
    const client = new Client(t().app);
    const uidb64 = Buffer.from(user.id).toString('base64url');
    const forged = await confirmReset(
      client,
      uidb64,
      'abc123-0123456789abcdef0123456789abcdef01234567',
      'a good new password',
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual(
      validation('token', 'The password reset link is invalid or has expired.'),
    );
    const typed = await confirmReset(client, uidb64, 5, 'a good new password');
    expect(typed.statusCode).toBe(400);
    expect(typed.json()).toEqual(validation('token', 'Not a valid string.'));
    await logIn(t().app, user.email, user.password);
  });
});

describeEachDialect(
  'User calls with signup disabled',
  ({ t }) => {
    it('POST /user/new/ answers 403 and creates nobody', async () => {
      const response = await signUp(
        new Client(t().app),
        'late@example.com',
        'a fine passphrase',
        'Late',
      );
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        type: 'client_error',
        errors: [
          {
            code: 'permission_denied',
            detail: 'Registration is disabled on this server.',
            attr: null,
          },
        ],
      });
      expect(await userRow(t, 'late@example.com')).toBeUndefined();
      expect(t().mails).toHaveLength(0);
    });

    it('existing users still log in and see the features', async () => {
      const user = await createTestUser(t().app);
      const client = await logIn(t().app, user.email, user.password);
      const features = (await client.get('user/')).json().features;
      expect(features.signup).toBe(false);
      expect(features.search).toBe(true);
    });
  },
  { FOLIA_FEATURES: 'search' },
);

describeEachDialect('Login throttle', ({ t }) => {
  afterEach(async () => {
    await t().app.db.deleteFrom('login_failures').execute();
  });

  async function failures(key: string): Promise<number> {
    const rows = await t()
      .app.db.selectFrom('login_failures')
      .select('id')
      .where('key', '=', key)
      .execute();
    return rows.length;
  }

  async function addFailures(key: string, count: number, at: Date): Promise<void> {
    const rows = Array.from({ length: count }, (_, index) => ({
      id: `${key}-${at.getTime()}-${index}`,
      key,
      at: at.toISOString(),
    }));
    await t().app.db.insertInto('login_failures').values(rows).execute();
  }

  it('answers 429 right after the fifth failure, without checking the password', async () => {
    const user = await createTestUser(t().app);
    const client = new Client(t().app);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await postLogin(client, user.email, 'wrong guess');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(LOGIN_FAILED);
    }
    expect(await failures(user.email)).toBe(5);
    expect(await failures('ip:127.0.0.1')).toBe(5);

    const blocked = await postLogin(client, user.email, user.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect(blocked.json()).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'throttled',
          detail: 'Request was throttled. Expected available in 1 second.',
          attr: null,
        },
      ],
    });
    expect(client.cookie('folia_session')).toBeUndefined();
    // A refused attempt is not a failure: it does not lengthen the wait.
    expect(await failures(user.email)).toBe(5);

    // Another e-mail from the same address is not held back by this one.
    const other = await createTestUser(t().app);
    await logIn(t().app, other.email, other.password);
  });

  it('lets the next attempt through once the backoff has passed, and a success clears the count', async () => {
    const user = await createTestUser(t().app);
    await addFailures(user.email, 5, new Date(Date.now() - 60_000));
    const response = await postLogin(new Client(t().app), user.email, user.password);
    expect(response.statusCode).toBe(200);
    expect(await failures(user.email)).toBe(0);
  });

  it('doubles the wait with every failure, up to 15 minutes', async () => {
    const user = await createTestUser(t().app);
    await addFailures(user.email, 8, new Date());
    const eight = await postLogin(new Client(t().app), user.email, user.password);
    expect(eight.statusCode).toBe(429);
    expect(Number(eight.headers['retry-after'])).toBeGreaterThanOrEqual(7);
    expect(Number(eight.headers['retry-after'])).toBeLessThanOrEqual(8);

    await addFailures(user.email, 30, new Date());
    const capped = await postLogin(
      new Client(t().app),
      ` ${user.email.toUpperCase()}`,
      user.password,
    );
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThanOrEqual(899);
    expect(Number(capped.headers['retry-after'])).toBeLessThanOrEqual(900);
  });

  it('forgets failures older than 15 minutes', async () => {
    const user = await createTestUser(t().app);
    await addFailures(user.email, 10, new Date(Date.now() - 16 * 60_000));
    await logIn(t().app, user.email, user.password);
  });

  it('holds back an address after 20 failures, whatever the e-mail', async () => {
    const user = await createTestUser(t().app);
    await addFailures('ip:127.0.0.1', 20, new Date());
    const response = await postLogin(new Client(t().app), user.email, user.password);
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('1');
  });

  it('throttles guesses of the current password through PATCH /user/', async () => {
    const user = await createTestUser(t().app);
    const client = new Client(t().app, user.token);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await client.patch('user/', {
        password: 'new and long enough',
        current_password: `guess ${attempt}`,
      });
      expect(response.statusCode).toBe(400);
    }
    const blocked = await client.patch('user/', {
      password: 'new and long enough',
      current_password: user.password,
    });
    expect(blocked.statusCode).toBe(429);
    // The count is the account's, so the login form waits as well.
    const login = await postLogin(new Client(t().app), user.email, user.password);
    expect(login.statusCode).toBe(429);
  });
});

describeEachDialect(
  'mailed links with FOLIA_PUBLIC_URL',
  ({ t }) => {
    it('point at the configured origin whatever Host header the request carried', async () => {
      const user = await createTestUser(t().app);
      const client = await new Client(t().app).prime();
      const response = await client.post(
        '/api/v1/user/password-reset/',
        { email: user.email },
        { host: 'evil.example.com' },
      );
      expect(response.statusCode).toBe(201);
      await vi.waitFor(() => expect(t().mails).toHaveLength(1));
      expect(t().mails[0]!.text).toContain('https://folia.example.org/user/reset/');
      expect(t().mails[0]!.text).not.toContain('evil.example.com');
    });
  },
  { FOLIA_PUBLIC_URL: 'https://folia.example.org/' },
);
