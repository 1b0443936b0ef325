import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { Client, createTestUser, describeEachDialect } from './harness';
import { NOT_AUTHENTICATED } from './expectedErrors';

const HINT = 'folia.signed_in';

/** The hint cookie an answer sets, with what a browser needs to know of it; none: undefined. */
function hintSet(response: LightMyRequestResponse) {
  const cookies = response.cookies as { name: string; value: string; httpOnly?: boolean }[];
  const cookie = cookies.find((candidate) => candidate.name === HINT);
  return cookie && { value: cookie.value, httpOnly: !!cookie.httpOnly };
}

describeEachDialect('The signed-in hint cookie', ({ t }) => {
  it('tells a first anonymous visit, readable by the page, that no session exists', async () => {
    const client = new Client(t().app);
    const info = await client.get('/api/v1/');
    expect(hintSet(info)).toEqual({ value: '0', httpOnly: false });
    // GET /user/ keeps Arkindex's answer for an anonymous caller.
    const user = await client.get('user/');
    expect(user.statusCode).toBe(401);
    expect(user.json()).toEqual(NOT_AUTHENTICATED);
    // Set once: later answers leave it alone.
    expect(hintSet(user)).toBeUndefined();
  });

  it('says 1 from the login on and 0 from the logout on', async () => {
    const user = await createTestUser(t().app);
    const client = await new Client(t().app).prime();
    const login = await client.post('user/login/', { email: user.email, password: user.password });
    expect(login.statusCode).toBe(200);
    expect(hintSet(login)).toEqual({ value: '1', httpOnly: false });
    const profile = await client.get('user/');
    expect(profile.statusCode).toBe(200);
    expect(hintSet(profile)).toBeUndefined();

    const logout = await client.delete('user/');
    expect(logout.statusCode).toBe(204);
    expect(hintSet(logout)).toEqual({ value: '0', httpOnly: false });
    expect(client.cookie(HINT)).toBe('0');
  });

  it('says 1 on a first login, when the same answer would otherwise say 0', async () => {
    const user = await createTestUser(t().app);
    const client = new Client(t().app);
    const first = await client.post('user/login/', { email: user.email, password: user.password });
    // No CSRF cookie yet, and no session: the login itself needs neither.
    expect(first.statusCode).toBe(200);
    expect(client.cookie(HINT)).toBe('1');
    expect((await client.get('user/')).statusCode).toBe(200);
  });

  it('says 0 once the server ended the session, e.g. a password changed elsewhere', async () => {
    const user = await createTestUser(t().app);
    const here = await new Client(t().app).prime();
    await here.post('user/login/', { email: user.email, password: user.password });
    const elsewhere = await new Client(t().app).prime();
    await elsewhere.post('user/login/', { email: user.email, password: user.password });
    const change = await elsewhere.patch('user/', {
      current_password: user.password,
      password: 'a new and long passphrase',
    });
    expect(change.statusCode).toBe(200);

    const after = await here.get('user/');
    expect(after.statusCode).toBe(401);
    expect(hintSet(after)).toEqual({ value: '0', httpOnly: false });
    expect(here.cookie('folia_session')).toBeUndefined();
    expect(elsewhere.cookie(HINT)).toBe('1');
  });

  it('says 1 to a browser holding a session made before the hint existed', async () => {
    const user = await createTestUser(t().app);
    const client = await new Client(t().app).prime();
    await client.post('user/login/', { email: user.email, password: user.password });
    const session = client.cookie('folia_session')!;
    const response = await t().app.inject({
      method: 'GET',
      url: '/api/v1/user/',
      headers: { cookie: `folia_session=${session}` },
    });
    expect(response.statusCode).toBe(200);
    expect(hintSet(response)).toEqual({ value: '1', httpOnly: false });
  });

  it('sets nothing on IIIF answers, which caches keep', async () => {
    const response = await new Client(t().app).get('/iiif/unknown/info.json');
    expect(hintSet(response)).toBeUndefined();
  });
});
