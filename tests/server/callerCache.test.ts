/**
 * The caller cache (server/auth/callerCache.ts): a credential read once serves the requests of
 * the next moments, and every write the API answers makes the next request read it again, so
 * a logout or a deactivation takes effect at once.
 */
import { describe, expect, it } from 'vitest';
import { CallerCache } from '../../server/auth/callerCache';
import type { User } from '../../server/db/schema';
import { Client, createTestUser, describeEachDialect } from './harness';

describe('CallerCache', () => {
  const user = { id: 'u1' } as User;

  it('keeps what a credential names for two seconds, then reads it again', async () => {
    const cache = new CallerCache();
    let reads = 0;
    const load = async () => {
      reads += 1;
      return user;
    };
    expect(await cache.through('token a', load)).toBe(user);
    expect(await cache.through('token a', load)).toBe(user);
    expect(reads).toBe(1);
    expect(cache.get('token a', Date.now() + 2500)).toBeUndefined();
    expect(await cache.through('token a', load)).toBe(user);
    expect(reads).toBe(2);
  });

  it('keeps an unknown credential as unknown, and forgets everything when cleared', async () => {
    const cache = new CallerCache();
    cache.set('token x', null);
    expect(cache.get('token x')).toBeNull();
    cache.clear();
    expect(cache.get('token x')).toBeUndefined();
  });
});

describeEachDialect('callers read again after a write', ({ t }) => {
  it('refuses a deactivated user’s token on the request after the deactivation', async () => {
    const { app } = t();
    const admin = await createTestUser(app, { admin: true });
    const user = await createTestUser(app);
    const asUser = new Client(app, user.token);
    expect((await asUser.get('/api/v1/user/')).statusCode).toBe(200);
    const patched = await new Client(app, admin.token).request(
      'PATCH',
      `/api/v1/admin/users/${user.id}/`,
      { is_active: false },
    );
    expect(patched.statusCode).toBe(200);
    const after = await asUser.get('/api/v1/user/');
    expect(after.statusCode).toBe(401);
  });

  it('treats a session as ended on the request after its logout', async () => {
    const { app } = t();
    const user = await createTestUser(app);
    const browser = await new Client(app).prime();
    const login = await browser.request('POST', '/api/v1/user/login/', {
      email: user.email,
      password: user.password,
    });
    expect(login.statusCode).toBe(200);
    const cookie = browser.cookie('folia_session')!;
    expect((await browser.get('/api/v1/user/')).statusCode).toBe(200);
    expect((await browser.request('DELETE', '/api/v1/user/')).statusCode).toBeLessThan(300);
    // The old cookie sent again, as a copy of it elsewhere would.
    const replay = await app.inject({
      url: '/api/v1/user/',
      headers: { cookie: `folia_session=${cookie}` },
    });
    expect(replay.statusCode).toBe(401);
  });
});
