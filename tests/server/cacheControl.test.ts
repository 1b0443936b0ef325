/**
 * Every API answer says how it may be cached: without Cache-Control, a browser reuses an
 * answer carrying Last-Modified for a tenth of the data's age (hours for a day-old page), so a
 * renamed page kept its old name on screen, even after a reload. Walks every registered route.
 */
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect, Client } from './harness';
import { makeActorsAndProjects } from './actors';
import { insertElements, makeImage, UNKNOWN_ID } from './elementsFixtures';

function cachingSaid(response: LightMyRequestResponse, what: string): void {
  const header = String(response.headers['cache-control'] ?? '');
  const immutable = /\bimmutable\b|\bmax-age=\d+/.test(header) && !/no-cache/.test(header);
  expect(
    header === 'private, no-cache' || immutable || /no-store/.test(header),
    `${what} answered ${response.statusCode} with cache-control "${header}"`,
  ).toBe(true);
}

describeEachDialect('every API answer says how it may be cached', ({ t }) => {
  it('on every route, found or not, allowed or not, as anyone', async () => {
    const app = t().app;
    const { actors, privateId } = await makeActorsAndProjects(app);
    const image = await makeImage(app, privateId);
    const ids = await insertElements(app, privateId, [
      { name: 'Folder', type: 'folder' },
      { name: 'Page', type: 'page', parent: 'Folder', image: image.id },
    ]);
    const admin = new Client(app, actors.siteAdmin.token);
    const anonymous = await new Client(app).prime();
    const routes = app.apiRoutes;
    expect(routes.length).toBeGreaterThan(60);
    const fill = (url: string, id: string) =>
      url.replace(/:([a-zA-Z_]+)/g, (_m, name: string) =>
        ['region', 'size', 'rotation', 'file'].includes(name) ? 'full' : id,
      );
    // Reads first (with real ids: answers that carry Last-Modified), then writes on unknown ids.
    for (const { url } of routes.filter((r) => r.method === 'GET')) {
      for (const id of [ids.Page!, privateId, UNKNOWN_ID, 'not-a-uuid']) {
        for (const client of [admin, anonymous]) {
          cachingSaid(await client.get(fill(url, id)), `GET ${fill(url, id)}`);
        }
      }
    }
    for (const { method, url } of routes.filter((r) => r.method !== 'GET')) {
      if (!url.includes(':')) continue; // creations on the real projects: not needed here
      const filled = fill(url, UNKNOWN_ID);
      const response = await admin.request(method as 'POST', filled, {});
      cachingSaid(response, `${method} ${filled}`);
    }
    cachingSaid(await admin.post('corpus/', { name: 42 }), 'an invalid POST');
    cachingSaid(await admin.get('no/such/route/'), 'an unknown API path');
    cachingSaid(await admin.get('/api/v1/corpus/%ZZ/'), 'a malformed URL');
    cachingSaid(await admin.get(`corpus/${'a'.repeat(5000)}/`), 'an over-long id');
  });

  it("an element's read, which carries Last-Modified, must be revalidated", async () => {
    const app = t().app;
    const { actors, privateId } = await makeActorsAndProjects(app, { private: 'P2', public: 'Q2' });
    const ids = await insertElements(app, privateId, [{ name: 'Line', type: 'folder' }]);
    const response = await new Client(app, actors.owner.token).get(`element/${ids.Line}/`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['last-modified']).toBeTruthy();
    expect(response.headers['cache-control']).toBe('private, no-cache');
  });
});
