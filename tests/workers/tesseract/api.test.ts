/**
 * The worker's API client: the task's token is sent to the API's origin only, never to another
 * IIIF server an image may live on; refusals carry the status and the server's words; page
 * lists are followed to the end.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, ApiCallError } from '../../../workers/tesseract/api';

interface Recorded {
  url: string;
  authorization: string | undefined;
}

function server(handler: (url: string, base: string) => [number, unknown]) {
  const seen: Recorded[] = [];
  const instance = http.createServer((request, response) => {
    seen.push({ url: request.url!, authorization: request.headers.authorization });
    const base = `http://127.0.0.1:${(instance.address() as AddressInfo).port}`;
    const [status, body] = handler(request.url!, base);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  return {
    instance,
    seen,
    url: () => `http://127.0.0.1:${(instance.address() as AddressInfo).port}`,
  };
}

describe('the worker API client', () => {
  const api = server((url, base) =>
    url === '/api/v1/list/?page=2'
      ? [200, { next: null, results: [3] }]
      : url === '/api/v1/list/'
        ? [200, { next: `${base}/api/v1/list/?page=2`, results: [1, 2] }]
        : [404, { type: 'client_error', errors: [{ code: 'not_found', detail: 'Not found.' }] }],
  );
  const images = server(() => [200, { image: true }]);

  beforeAll(async () => {
    await new Promise<void>((resolve) => api.instance.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => images.instance.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    api.instance.close();
    images.instance.close();
  });

  it('sends the token to the API only', async () => {
    const client = new Api(`${api.url()}/api/v1/`, 'Ponos secret');
    expect(await client.all<number>('list/')).toEqual([1, 2, 3]);
    expect(api.seen.every((request) => request.authorization === 'Ponos secret')).toBe(true);
    await client.bytes(`${images.url()}/iiif/page/full/full/0/default.png`);
    expect(images.seen).toEqual([
      { url: '/iiif/page/full/full/0/default.png', authorization: undefined },
    ]);
  });

  it('throws the status and the words of a refusal', async () => {
    const client = new Api(`${api.url()}/api/v1/`, 'Token secret');
    const error = await client.json('GET', 'element/x/').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).status).toBe(404);
    expect((error as ApiCallError).message).toContain('Not found.');
  });
});
