/**
 * The worker screens as the app wires them (the real route files under the app's root), over a
 * small stand-in for the workers API with the contract's rules: configurations checked with the
 * shared rules, a name taken answering 409 with existing_id, archive needing canArchive.
 */
import { Route as rootRoute } from '@/routes/__root';
import { Route as workersRoute } from '@/routes/process/workers/index';
import { Route as workerRoute } from '@/routes/process/workers/$workerId';
import { Route as workerVersionRoute } from '@/routes/process/worker-version/$versionId';
import { Route as workerRunsRoute } from '@/routes/process/worker-runs';
import type {
  LocalWorkerRun,
  Worker,
  WorkerConfiguration,
  WorkerType,
  WorkerVersion,
} from '@/api/workers';
import type { Corpus, User } from '@/api/types';
import {
  schemaProblems,
  validateConfiguration,
  type UserConfiguration,
} from '@/lib/workerConfiguration';
import {
  APP_STALE_TIME,
  apiError,
  corpusWith,
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

export const uuid = idSequence('c000');
export const info = makeInfo();
/** A user who may manage workers, so archive buttons show. */
export const manager: User = userWith(uuid(), {
  display_name: 'Grace Hopper',
  can_manage_workers: true,
});
export const plainUser: User = userWith(uuid(), { display_name: 'Alan Turing' });

const child = (route: { update: (options: never) => unknown }, path: string) =>
  route.update({ id: path, path, getParentRoute: () => rootRoute } as never);

const routeTree = rootRoute.addChildren([
  child(workersRoute, '/process/workers/'),
  child(workerRoute, '/process/workers/$workerId'),
  child(workerVersionRoute, '/process/worker-version/$versionId'),
  child(workerRunsRoute, '/process/worker-runs'),
] as never);

export const TYPES: WorkerType[] = [
  { id: uuid(), slug: 'classifier', display_name: 'Classifier' },
  { id: uuid(), slug: 'recognizer', display_name: 'Recognizer' },
  { id: uuid(), slug: 'custom', display_name: 'Custom' },
];

export function makeWorker(name: string, fields: Partial<Worker> = {}): Worker {
  return {
    id: uuid(),
    name,
    slug: name.toLowerCase().replace(/\s+/g, '-'),
    type: 'recognizer',
    description: '',
    repository_url: null,
    archived: false,
    ...fields,
  };
}

export const MODEL_ID = 'c0ffee00-0000-4000-8000-000000000001';
export const MISSING_MODEL_ID = 'deadbeef-0000-4000-8000-000000000002';
export const PAGE_MODEL_ID = 'c0ffee00-0000-4000-8000-000000000003';

/** A schema with one field of every type. */
export const SCHEMA: UserConfiguration = {
  batch_size: { title: 'Batch size', type: 'int', default: 8 },
  threshold: { title: 'Threshold', type: 'float', required: false },
  label: { title: 'Label', type: 'string' },
  notes: { title: 'Notes', type: 'text', required: false, help_text: 'Free text' },
  mode: { title: 'Mode', type: 'enum', choices: ['fast', 'accurate'], default: 'fast' },
  verbose: { title: 'Verbose', type: 'bool', default: false },
  mapping: { title: 'Mapping', type: 'dict', required: false },
  sizes: { title: 'Sizes', type: 'list', subtype: 'int', required: false },
  model: { title: 'Model', type: 'model', required: false },
  token: { title: 'Token', type: 'secret', required: false },
  zone_type: { title: 'Zone type', type: 'element_type', required: false },
  parent: { title: 'Parent version', type: 'worker_version', required: false },
  options: {
    title: 'Options',
    type: 'group',
    children: { size: { title: 'Size', type: 'int', default: 3 } },
  },
};

export function makeVersion(worker: Worker, fields: Partial<WorkerVersion> = {}): WorkerVersion {
  return {
    id: uuid(),
    worker: { id: worker.id, name: worker.name, slug: worker.slug, type: worker.type },
    version: 1,
    revision_url: null,
    branch: null,
    tag: null,
    state: 'available',
    gpu_usage: 'disabled',
    model_usage: 'supported',
    docker_image_iid: null,
    feature: null,
    created: '2024-05-03T10:00:00Z',
    configuration: { user_configuration: SCHEMA },
    ...fields,
  };
}

export function makeConfiguration(
  name: string,
  configuration: Record<string, unknown>,
  archived = false,
): WorkerConfiguration {
  return { id: uuid(), name, configuration, archived };
}

export function makeCorpus(): Corpus {
  return corpusWith({
    id: uuid(),
    name: 'Letters',
    public: false,
    rights: ['read', 'write', 'admin'],
    types: [
      { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
      { id: uuid(), slug: 'text_line', display_name: 'Text line', folder: false, color: 'aaaaaa' },
    ],
  });
}

export interface FakeWorkersOptions {
  workers?: Worker[];
  versions?: WorkerVersion[];
  /** Configurations per worker id. */
  configurations?: Record<string, WorkerConfiguration[]>;
  runs?: LocalWorkerRun[];
  corpora?: Corpus[];
  /** The user archive and publishing requests act as. */
  user?: User;
  overrides?: Record<string, Handler>;
}

const link = (path: string) => (page: number) => `http://localhost/api/v1${path}?page=${page}`;
const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
const forbidden = () =>
  apiError(403, [{ attr: null, detail: 'Forbidden.', code: 'permission_denied' }]);

/** The workers API of the contract, small enough to read. */
export function fakeWorkersServer(options: FakeWorkersOptions = {}) {
  const workers = options.workers ?? [];
  const versions = options.versions ?? [];
  const configurations: Record<string, WorkerConfiguration[]> = {};
  for (const [id, list] of Object.entries(options.configurations ?? {}))
    configurations[id] = [...list];
  const user = options.user ?? manager;
  const runs = [...(options.runs ?? [])];

  const mayManage = user.is_admin || user.can_manage_workers;
  // Each server its own copy: a worker made with a new type adds that type.
  const types = [...TYPES];

  /** POST /workers/: 201 new, 200 with the worker already holding the slug; new types made. */
  const createWorker = (body: Partial<Worker>): Response => {
    if (!mayManage) return forbidden();
    const missing = (['name', 'slug', 'type'] as const).filter((key) => !body[key]);
    if (missing.length) {
      return apiError(
        400,
        missing.map((attr) => ({ attr, detail: 'This field is required.' })),
      );
    }
    if (!/^[-a-zA-Z0-9_]+$/.test(body.slug!)) {
      return apiError(400, [
        {
          attr: 'slug',
          detail: 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.',
        },
      ]);
    }
    const existing = workers.find((item) => item.slug === body.slug);
    if (existing) return json(200, existing);
    if (!types.some((type) => type.slug === body.type)) {
      types.push({ id: uuid(), slug: body.type!, display_name: body.type! });
    }
    const created = makeWorker(body.name!, {
      slug: body.slug,
      type: body.type,
      description: body.description ?? '',
      repository_url: body.repository_url ?? null,
    });
    workers.push(created);
    return json(201, created);
  };

  /** POST /workers/{id}/versions/: schema and revision checked as the server does. */
  const createVersion = (worker: Worker, body: Partial<WorkerVersion>): Response => {
    if (!mayManage) return forbidden();
    const schema = body.configuration?.user_configuration;
    const problems = schema === undefined ? [] : schemaProblems(schema);
    if (problems.length) {
      return apiError(
        400,
        problems.map((problem) => ({
          attr: ['configuration.user_configuration', problem.key].filter(Boolean).join('.'),
          detail: problem.message,
        })),
      );
    }
    if (body.revision_url && versions.some((item) => item.revision_url === body.revision_url)) {
      return apiError(400, [
        { attr: 'revision_url', detail: 'A version with this revision already exists.' },
      ]);
    }
    const numbered = versions.filter((item) => item.worker.id === worker.id && item.version);
    const created = makeVersion(worker, {
      version: body.revision_url ? null : Math.max(0, ...numbered.map((item) => item.version!)) + 1,
      revision_url: body.revision_url ?? null,
      tag: body.tag ?? null,
      branch: body.branch ?? null,
      state: body.state ?? 'created',
      gpu_usage: body.gpu_usage ?? 'disabled',
      model_usage: body.model_usage ?? 'disabled',
      created: new Date().toISOString(),
      configuration: body.configuration ?? {},
    });
    // Newest first, as the server lists them.
    versions.unshift(created);
    return json(201, created);
  };

  const answer = (call: Call): Response => {
    const page = Number(call.query.get('page') ?? '1');
    const size = Number(call.query.get('page_size') ?? '20');
    const paged = <T,>(list: T[]) => json(200, pageOf(list, page, size, link(call.path)));
    if (call.method === 'POST' && call.path === '/workers/') {
      return createWorker(call.body as Partial<Worker>);
    }
    if (call.path === '/workers/') {
      const name = (call.query.get('name') ?? '').toLowerCase();
      const type = call.query.get('type');
      return paged(
        workers.filter(
          (worker) =>
            `${worker.name} ${worker.slug}`.toLowerCase().includes(name) &&
            (!type || worker.type === type),
        ),
      );
    }
    if (call.path === '/workers/types/') return paged(types);
    if (call.path === '/models/') {
      const name = (call.query.get('name') ?? '').toLowerCase();
      return paged(
        [
          { id: MODEL_ID, name: 'Line model' },
          { id: PAGE_MODEL_ID, name: 'Page model' },
        ].filter((model) => model.name.toLowerCase().includes(name)),
      );
    }
    if (call.path === '/process/local/workers/') return paged(runs);
    if (call.method === 'POST' && call.path === '/process/local/workers/create/') {
      const { worker_version_id } = call.body as { worker_version_id: string };
      const found = versions.find((item) => item.id === worker_version_id);
      if (!found) {
        return apiError(400, [{ attr: 'worker_version_id', detail: 'Invalid pk.' }]);
      }
      const run: LocalWorkerRun = {
        id: uuid(),
        worker_version: found,
        model_version: null,
        configuration: null,
      };
      runs.push(run);
      return json(201, run);
    }
    const corpus = /^\/corpus\/([^/]+)\/$/.exec(call.path);
    if (corpus) {
      const found = options.corpora?.find((item) => item.id === corpus[1]);
      return found ? json(200, found) : notFound();
    }
    const version = /^\/workers\/versions\/([^/]+)\/$/.exec(call.path);
    if (version) {
      const found = versions.find((item) => item.id === version[1]);
      if (!found) return notFound();
      if (call.method === 'PATCH') {
        if (!mayManage) return forbidden();
        Object.assign(found, call.body as Partial<WorkerVersion>);
      }
      return json(200, found);
    }
    if (/^\/workers\/versions\/[^/]+\/fields\/$/.test(call.path)) return paged([]);
    const configuration = /^\/workers\/configurations\/([^/]+)\/$/.exec(call.path);
    if (configuration) {
      const found = Object.values(configurations)
        .flat()
        .find((item) => item.id === configuration[1]);
      if (!found) return notFound();
      if (call.method === 'PATCH') {
        if (!mayManage) return forbidden();
        Object.assign(found, call.body as Partial<WorkerConfiguration>);
      }
      return json(200, found);
    }
    const worker = /^\/workers\/([^/]+)\/(?:(versions|configurations)\/)?$/.exec(call.path);
    if (worker) {
      const found = workers.find((item) => item.id === worker[1]);
      if (!found) return notFound();
      if (worker[2] === 'versions') {
        if (call.method === 'POST')
          return createVersion(found, call.body as Partial<WorkerVersion>);
        return paged(versions.filter((item) => item.worker.id === found.id));
      }
      if (worker[2] === 'configurations') {
        const list = (configurations[found.id] ??= []);
        if (call.method === 'POST') {
          const body = call.body as {
            name: string;
            configuration: Record<string, unknown>;
            worker_version_id?: string;
          };
          const taken = list.find((item) => item.name === body.name);
          if (taken) {
            return apiError(
              409,
              [
                {
                  attr: null,
                  detail: 'A worker configuration with this name already exists for this worker.',
                  code: 'conflict',
                },
              ],
              { existing_id: taken.id },
            );
          }
          // The named version's fields, else the newest version's that has some; none: no checks.
          const schema = (
            versions.find((item) => item.id === body.worker_version_id) ??
            versions.find(
              (item) => item.worker.id === found.id && item.configuration.user_configuration,
            )
          )?.configuration.user_configuration;
          const problems = schema ? validateConfiguration(schema, body.configuration) : [];
          if (problems.length) {
            return apiError(
              400,
              problems.map((problem) => ({
                attr: problem.key ? `configuration.${problem.key}` : 'configuration',
                detail: problem.message,
              })),
            );
          }
          const created = makeConfiguration(body.name, body.configuration);
          list.push(created);
          return json(201, created);
        }
        const archived = call.query.get('archived');
        return paged(
          list.filter((item) => archived === null || String(item.archived) === archived),
        );
      }
      return json(200, found);
    }
    const run = /^\/process\/workers\/([^/]+)\/$/.exec(call.path);
    if (run) {
      const found = runs.find((item) => item.id === run[1]);
      if (!found) return notFound();
      return json(200, {
        ...found,
        summary: `Worker ${found.worker_version.worker.name}`,
        worker_version: { ...found.worker_version, revision: null },
        process: { id: uuid(), name: 'Local process', state: 'unscheduled' },
      });
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  };

  const server = stubFetch(
    async (call) => (await overridden(options.overrides, call)) ?? answer(call),
  );
  return { ...server, configurations, runs, workers, versions };
}

export function renderWorkers(url: string, user: User | null = manager) {
  return renderRoutes(routeTree as never, { url, info, user, staleTime: APP_STALE_TIME });
}
