/**
 * The model screens as the app wires them (the real route files under the app's root), over a
 * small stand-in for the models API with the contract's rules: names trimmed and unique,
 * contributor rights to edit, the archived filter and compatible workers.
 */
import { Route as rootRoute } from '@/routes/__root';
import { Route as modelsRoute } from '@/routes/models';
import { Route as modelRoute } from '@/routes/model/$modelId';
import { Route as modelVersionRoute } from '@/routes/model-version/$versionId';
import type { Model, ModelMembership, ModelRight, ModelVersion, ModelWorker } from '@/api/models';
import type { User } from '@/api/types';
import {
  APP_STALE_TIME,
  apiError,
  idSequence,
  json,
  makeInfo,
  overridden,
  pageOf,
  renderRoutes,
  stubFetch,
  userWith,
  type Call,
  type Handler,
} from '../support/harness';

export { apiError, isolateEachTest, json, type Call } from '../support/harness';

export const uuid = idSequence('b000');
export const info = makeInfo();
export const me: User = userWith(uuid(), { display_name: 'Ada Lovelace' });

const routeTree = rootRoute.addChildren([
  modelsRoute.update({ id: '/models', path: '/models', getParentRoute: () => rootRoute } as never),
  modelRoute.update({
    id: '/model/$modelId',
    path: '/model/$modelId',
    getParentRoute: () => rootRoute,
  } as never),
  modelVersionRoute.update({
    id: '/model-version/$versionId',
    path: '/model-version/$versionId',
    getParentRoute: () => rootRoute,
  } as never),
]);

const RIGHTS: Record<'guest' | 'contributor' | 'admin', ModelRight[]> = {
  guest: ['read'],
  contributor: ['read', 'write'],
  admin: ['read', 'write', 'admin'],
};

export function makeModel(fields: Partial<Model> & { role?: keyof typeof RIGHTS } = {}): Model {
  const { role = 'admin', ...rest } = fields;
  return {
    id: uuid(),
    name: 'Handwriting model',
    description: '',
    created: '2024-05-01T10:00:00Z',
    updated: '2024-05-02T10:00:00Z',
    archived: false,
    public: false,
    rights: RIGHTS[role],
    ...rest,
  };
}

export function makeVersion(model: Model, fields: Partial<ModelVersion> = {}): ModelVersion {
  return {
    id: uuid(),
    model_id: model.id,
    model: { id: model.id, name: model.name },
    state: 'available',
    parent: null,
    tag: null,
    description: '',
    configuration: {},
    size: 1_500_000,
    hash: 'ab'.repeat(32),
    archive_hash: null,
    created: '2024-05-03T10:00:00Z',
    updated: '2024-05-03T10:00:00Z',
    s3_url: null,
    s3_put_url: null,
    ...fields,
  };
}

export function makeWorker(name: string, fields: Partial<ModelWorker> = {}): ModelWorker {
  return {
    id: uuid(),
    name,
    slug: name.toLowerCase().replace(/\s+/g, '-'),
    type: 'recognizer',
    ...fields,
  };
}

export interface FakeModelsOptions {
  models?: Model[];
  versions?: ModelVersion[];
  workers?: ModelWorker[];
  /** Compatible worker ids per model id. */
  compatible?: Record<string, string[]>;
  /** Members per model id. */
  members?: Record<string, ModelMembership[]>;
  /** Accounts that exist, for adding members by e-mail. */
  accounts?: ModelMembership['user'][];
  overrides?: Record<string, Handler>;
}

const link = (path: string) => (page: number) => `http://localhost/api/v1${path}?page=${page}`;
const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);

/** The models API of the contract, small enough to read. */
export function fakeModelsServer(options: FakeModelsOptions = {}) {
  const models = [...(options.models ?? [])];
  const versions = [...(options.versions ?? [])];
  const workers = options.workers ?? [];
  const compatible: Record<string, string[]> = {};
  for (const [id, list] of Object.entries(options.compatible ?? {})) compatible[id] = [...list];
  const members: Record<string, ModelMembership[]> = {};
  for (const [id, list] of Object.entries(options.members ?? {})) members[id] = [...list];
  const accounts = options.accounts ?? [];

  const answer = (call: Call): Response => {
    const page = Number(call.query.get('page') ?? '1');
    const size = Number(call.query.get('page_size') ?? '20');
    if (call.method === 'GET' && call.path === '/models/') {
      const name = (call.query.get('name') ?? '').toLowerCase();
      const archived = call.query.get('archived') === 'true';
      const worker = call.query.get('compatible_worker');
      const found = models.filter(
        (model) =>
          model.name.toLowerCase().includes(name) &&
          model.archived === archived &&
          (!worker || (compatible[model.id] ?? []).includes(worker)),
      );
      return json(200, pageOf(found, page, size, link(call.path)));
    }
    if (call.method === 'POST' && call.path === '/models/') {
      const body = call.body as { name: string; description?: string };
      const taken = models.find((model) => model.name === body.name);
      if (taken) {
        return apiError(400, [{ attr: 'name', detail: 'A model with this name already exists.' }], {
          id: taken.id,
        });
      }
      const model = makeModel({ name: body.name, description: body.description ?? '' });
      models.push(model);
      return json(201, model);
    }
    if (call.method === 'GET' && call.path === '/workers/') {
      const name = (call.query.get('name') ?? '').toLowerCase();
      const found = workers.filter((worker) =>
        `${worker.name} ${worker.slug}`.toLowerCase().includes(name),
      );
      return json(200, pageOf(found, page, size, link(call.path)));
    }
    if (call.method === 'POST' && call.path === '/memberships/') {
      const body = call.body as { model_id: string; user_email: string; level: number };
      const account = accounts.find((user) => user.email === body.user_email);
      if (!account) {
        return apiError(400, [
          { attr: 'user_email', detail: 'No user with this email address exists.' },
        ]);
      }
      const membership = {
        id: uuid(),
        level: body.level,
        created: '2024-05-04T10:00:00Z',
        user: account,
      };
      (members[body.model_id] ??= []).push(membership);
      return json(201, membership);
    }
    const membershipMatch = /^\/membership\/([^/]+)\/$/.exec(call.path);
    if (call.method === 'DELETE' && membershipMatch) {
      for (const list of Object.values(members)) {
        const index = list.findIndex((member) => member.id === membershipMatch[1]);
        if (index >= 0) list.splice(index, 1);
      }
      return json(204, null);
    }
    const workerMatch = /^\/workers\/([^/]+)\/$/.exec(call.path);
    if (call.method === 'GET' && workerMatch) {
      const worker = workers.find((item) => item.id === workerMatch[1]);
      return worker ? json(200, worker) : notFound();
    }
    const modelMatch = /^\/model\/([^/]+)\/(?:(versions|compatible-workers|memberships)\/)?$/.exec(
      call.path,
    );
    if (modelMatch) {
      const model = models.find((item) => item.id === modelMatch[1]);
      if (!model) return notFound();
      if (modelMatch[2] === 'versions' && call.method === 'POST') {
        const body = call.body as { tag?: string; description?: string };
        const version = makeVersion(model, {
          tag: body.tag ?? null,
          description: body.description ?? '',
          state: 'created',
          size: null,
          hash: null,
        });
        version.s3_put_url = `http://localhost/api/v1/modelversion/${version.id}/upload/`;
        versions.unshift(version);
        return json(201, version);
      }
      if (modelMatch[2] === 'versions') {
        const list = versions.filter((version) => version.model_id === model.id);
        return json(200, pageOf(list, page, size, link(call.path)));
      }
      if (modelMatch[2] === 'memberships') {
        return json(200, pageOf(members[model.id] ?? [], page, size, link(call.path)));
      }
      if (modelMatch[2] === 'compatible-workers') {
        const ids = compatible[model.id] ?? [];
        const list = workers.filter((worker) => ids.includes(worker.id));
        return json(200, pageOf(list, page, size, link(call.path)));
      }
      if (call.method === 'GET') return json(200, model);
      if (call.method === 'PATCH') {
        if (!model.rights.includes('write')) {
          return apiError(403, [
            {
              attr: null,
              detail: 'A contributor access level is required to edit a model',
              code: 'permission_denied',
            },
          ]);
        }
        Object.assign(model, call.body as Partial<Model>);
        return json(200, model);
      }
    }
    const compatibleMatch = /^\/model\/([^/]+)\/compatible-worker\/([^/]+)\/$/.exec(call.path);
    if (compatibleMatch) {
      const list = (compatible[compatibleMatch[1]!] ??= []);
      const workerId = compatibleMatch[2]!;
      if (call.method === 'POST') {
        if (!list.includes(workerId)) list.push(workerId);
        return json(201, { model_id: compatibleMatch[1], worker_id: workerId });
      }
      if (call.method === 'DELETE') {
        list.splice(list.indexOf(workerId), 1);
        return json(204, null);
      }
    }
    const versionMatch = /^\/modelversion\/([^/]+)\/$/.exec(call.path);
    if (versionMatch) {
      const index = versions.findIndex((item) => item.id === versionMatch[1]);
      const version = versions[index];
      if (!version) return notFound();
      if (call.method === 'GET') return json(200, version);
      if (call.method === 'PATCH') {
        Object.assign(version, call.body as Partial<ModelVersion>, {
          updated: '2024-05-05T10:00:00Z',
        });
        return json(200, version);
      }
      if (call.method === 'DELETE') {
        versions.splice(index, 1);
        return json(204, null);
      }
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  };

  const server = stubFetch(
    async (call) => (await overridden(options.overrides, call)) ?? answer(call),
  );
  return { ...server, models, versions, compatible, members };
}

export function renderModels(url: string, user: User | null = me) {
  return renderRoutes(routeTree as never, { url, info, user, staleTime: APP_STALE_TIME });
}
