/**
 * The secrets screens as the app wires them (the real route files under the app's root), over a
 * small stand-in for the secrets API with the server's rules: site admins only, names unique,
 * a value answered only by GET /secret/{name}.
 */
import { Route as rootRoute } from '@/routes/__root';
import { Route as secretsRoute } from '@/routes/secret/index';
import { Route as secretRoute } from '@/routes/secret/$';
import type { Secret } from '@/api/secrets';
import type { User } from '@/api/types';
import {
  APP_STALE_TIME,
  apiError,
  idSequence,
  json,
  makeInfo,
  pageOf,
  renderRoutes,
  stubFetch,
  userWith,
  type Call,
} from '../support/harness';

export { isolateEachTest } from '../support/harness';

const uuid = idSequence('c000');
export const admin: User = userWith(uuid(), { display_name: 'Grace Hopper', is_admin: true });
export const annotator: User = userWith(uuid(), { display_name: 'Ada Lovelace' });

const routeTree = rootRoute.addChildren([
  secretsRoute.update({
    id: '/secret/',
    path: '/secret/',
    getParentRoute: () => rootRoute,
  } as never),
  secretRoute.update({
    id: '/secret/$',
    path: '/secret/$',
    getParentRoute: () => rootRoute,
  } as never),
]);

export function makeSecret(
  name: string,
  content = `value of ${name}`,
): Secret & { updated: string } {
  return { id: uuid(), name, content, updated: '2024-05-02T10:00:00Z' };
}

const ONLY_ADMINS = 'Only site administrators can do this.';

/** The secrets API, for a caller who is a site admin or not. */
export function fakeSecretsServer(secrets: ReturnType<typeof makeSecret>[], asAdmin = true) {
  const stored = [...secrets];
  const summary = ({ content: _content, ...rest }: ReturnType<typeof makeSecret>) => ({
    ...rest,
    created: rest.updated,
  });
  const answer = (call: Call): Response => {
    if (!asAdmin)
      return apiError(403, [{ attr: null, detail: ONLY_ADMINS, code: 'permission_denied' }]);
    if (call.method === 'GET' && call.path === '/secrets/') {
      const page = Number(call.query.get('page') ?? '1');
      const size = Number(call.query.get('page_size') ?? '20');
      const sorted = [...stored].sort((a, b) => a.name.localeCompare(b.name)).map(summary);
      return json(
        200,
        pageOf(sorted, page, size, (n) => `http://localhost/api/v1/secrets/?page=${n}`),
      );
    }
    if (call.method === 'POST' && call.path === '/secrets/') {
      const body = call.body as { name: string; content: string };
      if (stored.some((secret) => secret.name === body.name)) {
        return apiError(400, [
          { attr: 'name', detail: 'A secret with this name already exists.', code: 'unique' },
        ]);
      }
      const secret = makeSecret(body.name, body.content);
      stored.push(secret);
      return json(201, summary(secret));
    }
    const match = /^\/secret\/(.+)$/.exec(call.path);
    if (match) {
      const name = match[1]!.split('/').map(decodeURIComponent).join('/');
      const index = stored.findIndex((secret) => secret.name === name);
      if (index < 0)
        return apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
      if (call.method === 'DELETE') {
        stored.splice(index, 1);
        return json(204, null);
      }
      const { id, content } = stored[index]!;
      return json(200, { id, name, content });
    }
    return apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
  };
  return { ...stubFetch(answer), stored };
}

export function renderSecrets(
  url: string,
  { user = admin, enterprise = true }: { user?: User; enterprise?: boolean } = {},
) {
  return renderRoutes(routeTree as never, {
    url,
    info: makeInfo({ enterprise }),
    user,
    staleTime: APP_STALE_TIME,
  });
}
