import { expect, it } from 'vitest';
import { Client, DEFAULT_FEATURES, createTestUser, describeEachDialect } from './harness';
import { NOT_FOUND } from './expectedErrors';

describeEachDialect('GET /api/v1/', ({ t }) => {
  it('answers anonymously with version, every feature flag and the banner', async () => {
    const response = await new Client(t().app).get('/api/v1/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      version: '1.9.0',
      features: DEFAULT_FEATURES,
      banner: null,
    });
  });

  it('sets the CSRF cookie for the browser to echo', async () => {
    const client = new Client(t().app);
    await client.get('/api/v1/');
    expect(client.cookie('arkindex.csrf')).toMatch(/^[\w-]{20,}$/);
  });

  it('sets no CSRF cookie for a script calling with a token', async () => {
    const user = await createTestUser(t().app);
    const response = await t().app.inject({
      url: '/api/v1/',
      headers: { authorization: `Token ${user.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('answers unknown API routes with a structured 404', async () => {
    const response = await new Client(t().app).get('/api/v1/no/such/route/');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
  });
});

describeEachDialect(
  'GET /api/v1/ with configured features and banner',
  ({ t }) => {
    it('reflects FOLIA_FEATURES and FOLIA_BANNER', async () => {
      const body = (await new Client(t().app).get('/api/v1/')).json();
      expect(body.features.signup).toBe(false);
      expect(body.features.search).toBe(true);
      expect(body.features.enterprise).toBe(true);
      expect(body.banner).toEqual({ style: 'warning', message: 'Maintenance at 6pm' });
    });
  },
  {
    FOLIA_FEATURES: 'search,enterprise',
    // The enterprise edition does not start without the key that encrypts its secrets.
    FOLIA_SECRET_KEY: '0f'.repeat(32),
    FOLIA_BANNER: '{"style":"warning","message":"Maintenance at 6pm"}',
  },
);
