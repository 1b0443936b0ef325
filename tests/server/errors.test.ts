import { expect, it } from 'vitest';
import { Client, createTestUser, describeEachDialect } from './harness';

describeEachDialect('client mistakes get structured errors and change nothing', ({ t }) => {
  it('refuses a body over 10 MB with 413 and stores nothing', async () => {
    const user = await createTestUser(t().app);
    const client = new Client(t().app, user.token);
    const huge = JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) });
    const response = await client.post('/api/v1/corpus/', huge);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      type: 'client_error',
      errors: [
        {
          code: 'request_too_large',
          detail: 'Request body is too large (10 MB at most).',
          attr: null,
        },
      ],
    });
    expect((await client.get('/api/v1/corpus/')).json()).toEqual([]);
  });

  it('answers malformed JSON with a 400 parse error', async () => {
    const user = await createTestUser(t().app);
    const response = await new Client(t().app, user.token).post('/api/v1/corpus/', '{"name": ');
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe('client_error');
    expect(response.json().errors[0].code).toBe('parse_error');
  });

  it('answers a body that is not JSON with 415', async () => {
    const user = await createTestUser(t().app);
    const response = await new Client(t().app, user.token).post('/api/v1/corpus/', 'name=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().errors[0].code).toBe('unsupported_media_type');
  });

  it('answers a JSON array where an object is expected with a 400 naming non_field_errors', async () => {
    const user = await createTestUser(t().app);
    const response = await new Client(t().app, user.token).post('/api/v1/corpus/', '[1, 2]');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      type: 'validation_error',
      errors: [
        {
          code: 'invalid',
          detail: 'Invalid data. Expected a dictionary, but got list.',
          attr: 'non_field_errors',
        },
      ],
    });
  });

  it('refuses an unknown token with 401 rather than treating the caller as anonymous', async () => {
    const response = await new Client(t().app, 'not-a-token').get('/api/v1/corpus/');
    expect(response.statusCode).toBe(401);
    expect(response.json().errors[0]).toEqual({
      code: 'authentication_failed',
      detail: 'Invalid token.',
      attr: null,
    });
  });

  it('answers unknown API paths and methods with a structured 404', async () => {
    const client = new Client(t().app);
    for (const [method, url] of [
      ['GET', '/api/v1/nothing/here/'],
      ['POST', '/api/v1/'],
      ['DELETE', '/api/v1/corpus/'],
    ] as const) {
      const response = await client.request(method, url);
      expect(response.statusCode).toBe(404);
      expect(response.json().type).toBe('client_error');
    }
  });
});
