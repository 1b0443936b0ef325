import net, { type AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { Client, createTestUser, describeEachDialect, makeTestApp } from './harness';

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

  it('answers unknown API paths with a structured 404', async () => {
    const response = await new Client(t().app).get('/api/v1/nothing/here/');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(refusal('not_found', 'Not found.'));
  });

  it('answers a method the path does not take with a structured 405 naming those it takes', async () => {
    const client = new Client(t().app);
    for (const [method, url, allow] of [
      ['POST', '/api/v1/', 'GET, HEAD'],
      ['DELETE', '/api/v1/corpus/', 'GET, HEAD, POST'],
      ['PUT', '/api/v1/corpus/0f4e6c1c-2a4e-4c55-9d53-3f0f25b3b7a1/', 'GET, HEAD, PATCH, DELETE'],
      ['OPTIONS', '/api/v1/corpus/', 'GET, HEAD, POST'],
    ] as const) {
      const response = await client.request(method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.json()).toEqual(
        refusal('method_not_allowed', `Method "${method}" not allowed.`),
      );
    }
  });

  it('answers what the router refuses before any route runs in the structured form', async () => {
    const client = new Client(t().app);
    const badUrl = await client.get('/api/v1/corpus/%ZZ/');
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual(
      refusal('invalid_url', 'The address is not valid: it has a malformed %-encoding.'),
    );
    const longId = await client.get(`/api/v1/corpus/${'a'.repeat(5000)}/`);
    expect(longId.statusCode).toBe(414);
    expect(longId.json()).toEqual(
      refusal('uri_too_long', 'A part of the address is too long (100 characters at most).'),
    );
    // The IIIF routes share the refusals.
    expect((await client.get('/iiif/%E0%A4%A/info.json')).json().errors[0].code).toBe(
      'invalid_url',
    );
  });

  it('answers a body whose length is not the announced one with a structured 400', async () => {
    const user = await createTestUser(t().app);
    const response = await t().app.inject({
      method: 'POST',
      url: '/api/v1/corpus/',
      headers: {
        authorization: `Token ${user.token}`,
        'content-type': 'application/json',
        'content-length': '50',
      },
      payload: '{"name": "x"}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe('client_error');
    expect(response.json().errors[0].code).toBe('parse_error');
  });

  it("answers what Node's HTTP parser refuses in the structured form", async () => {
    const app = t().app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const cases = [
      [
        `GET /api/v1/corpus/${'a'.repeat(20_000)}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
        431,
        'request_header_fields_too_large',
      ],
      [
        `GET /api/v1/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'request_header_fields_too_large',
      ],
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'parse_error'],
      [
        'POST /api/v1/corpus/ HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n',
        400,
        'parse_error',
      ],
      // Real URL, refused by the router: over the socket too.
      [
        'GET /api/v1/corpus/%ZZ/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        400,
        'invalid_url',
      ],
    ] as const;
    for (const [request, status, code] of cases) {
      const answer = await rawExchange(port, request);
      const label = request.slice(0, 30);
      expect(answer.status, label).toBe(status);
      expect(answer.headers['content-type'], label).toMatch(/^application\/json/);
      const body = JSON.parse(answer.body);
      expect(body.type, label).toBe('client_error');
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].code, label).toBe(code);
      expect(body.errors[0].attr).toBeNull();
      expect(Object.keys(body).sort()).toEqual(['errors', 'type']);
    }
  });
});

describeEachDialect('a request that arrives while the server shuts down', ({ dialect }) => {
  it('gets a structured 503', async () => {
    const own = await makeTestApp(dialect);
    let answered: Promise<{ statusCode: number; json(): unknown }> | null = null;
    // Asked from a later close hook: the server is closing by then, not closed yet.
    own.app.addHook('preClose', async () => {
      answered = own.app.inject({ method: 'GET', url: '/api/v1/' });
    });
    await own.close();
    const response = await answered!;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      type: 'server_error',
      errors: [
        {
          code: 'service_unavailable',
          detail: 'The server is shutting down; try again in a moment.',
          attr: null,
        },
      ],
    });
  });
});

function refusal(code: string, detail: string) {
  return { type: 'client_error', errors: [{ code, detail, attr: null }] };
}

/** Sends bytes as they are (no client library would send these) and reads the raw answer. */
function rawExchange(
  port: number,
  request: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}
