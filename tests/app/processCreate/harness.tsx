/**
 * The filter and configure steps as the app wires them (the real route files), over a small
 * stand-in for the processes API with the contract's rules: filters only before the start,
 * cursor-paged elements with their count, worker runs whose parents must form a DAG and whose
 * configuration must not be archived, templates, farms and the start.
 */
import { Route as filterRoute } from '@/routes/process/$id/filter';
import { Route as configureRoute } from '@/routes/process/$id/configure';
import type { Model, ModelVersion } from '@/api/models';
import type { ProcessWorkerRun } from '@/api/processConfiguration';
import type { Farm, Process, ProcessElement, Task } from '@/api/processTypes';
import type { Corpus, MlClassRef, User } from '@/api/types';
import type { Worker, WorkerConfiguration, WorkerVersion } from '@/api/workers';
import {
  APP_STALE_TIME,
  apiError,
  corpusWith,
  idSequence,
  json,
  makeInfo,
  makeRoot,
  overridden,
  pageOf,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
  type Call,
  type Handler,
} from '../support/harness';

export { apiError, isolateEachTest, json, type Call } from '../support/harness';

export const uuid = idSequence('e000');
export const admin: User = userWith(uuid(), { display_name: 'Ada Lovelace' });

export function makeCorpus(): Corpus {
  return corpusWith({
    id: uuid(),
    name: 'Letters',
    public: false,
    rights: ['read', 'write', 'admin'],
    types: [
      { id: uuid(), slug: 'folder', display_name: 'Folder', folder: true, color: '28b62c' },
      { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
      { id: uuid(), slug: 'text_line', display_name: 'Text line', folder: false, color: 'aaaaaa' },
    ],
  });
}

export function makeProcess(corpus: Corpus, fields: Partial<Process> = {}): Process {
  return {
    id: uuid(),
    name: null,
    mode: 'workers',
    corpus: corpus.id,
    corpus_name: corpus.name,
    state: 'unscheduled',
    creator: { id: admin.id, display_name: admin.display_name },
    created: '2024-06-01T10:00:00Z',
    updated: null,
    started: null,
    finished: null,
    activity_state: 'disabled',
    element: null,
    element_type: null,
    element_name_contains: null,
    load_children: 'all',
    ml_class_id: null,
    selection_count: 0,
    template_id: null,
    farm: null,
    chunks: 1,
    use_gpu: false,
    tasks: [],
    ...fields,
  };
}

/** An element the fake selects: depth 0 is a root, deeper ones are loaded as children. */
export interface FakeElement {
  id: string;
  name: string;
  type: string;
  depth: number;
  classIds?: string[];
}

export function makeElements(count: number, type: string, depth: number, prefix: string) {
  return Array.from({ length: count }, (_, index): FakeElement => ({
    id: uuid(),
    name: `${prefix} ${String(index + 1).padStart(3, '0')}`,
    type,
    depth,
  }));
}

export function makeWorker(name: string, fields: Partial<Worker> = {}): Worker {
  return {
    id: uuid(),
    name,
    slug: name.toLowerCase().replace(/\s+/g, '-'),
    type: 'recognizer',
    archived: false,
    ...fields,
  };
}

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
    model_usage: 'disabled',
    docker_image_iid: null,
    feature: null,
    created: '2024-05-03T10:00:00Z',
    configuration: {},
    ...fields,
  };
}

export function makeModel(name: string): Model {
  return {
    id: uuid(),
    name,
    description: '',
    created: '2024-05-01T10:00:00Z',
    updated: '2024-05-01T10:00:00Z',
    archived: false,
    public: false,
    rights: ['read'],
  };
}

export function makeModelVersion(model: Model, fields: Partial<ModelVersion> = {}): ModelVersion {
  return {
    id: uuid(),
    model_id: model.id,
    model: { id: model.id, name: model.name },
    state: 'available',
    parent: null,
    tag: null,
    description: '',
    configuration: {},
    size: 10,
    hash: null,
    archive_hash: null,
    created: '2024-05-01T10:00:00Z',
    updated: '2024-05-01T10:00:00Z',
    ...fields,
  } as ModelVersion;
}

export interface FakeProcessOptions {
  corpus: Corpus;
  process: Process;
  elements?: FakeElement[];
  classes?: MlClassRef[];
  workers?: Worker[];
  versions?: WorkerVersion[];
  /** The recommended version per worker id; none answers 404. */
  recommended?: Record<string, string>;
  configurations?: Record<string, WorkerConfiguration[]>;
  /** Models compatible with each worker id. */
  models?: Record<string, Model[]>;
  modelVersions?: ModelVersion[];
  runs?: ProcessWorkerRun[];
  templates?: { process: Process; runs: ProcessWorkerRun[] }[];
  farms?: Farm[];
  overrides?: Record<string, Handler>;
}

const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
const invalid = (attr: string | null, detail: string) => apiError(400, [{ attr, detail }]);
const link = (path: string) => (page: number) => `http://localhost/api/v1${path}?page=${page}`;

/** The processes API of the contract, for one process of one project. */
export function fakeProcessServer(options: FakeProcessOptions) {
  const { corpus } = options;
  const process = options.process;
  const elements = options.elements ?? [];
  const versions = options.versions ?? [];
  const runs = [...(options.runs ?? [])];
  const templates = [...(options.templates ?? [])];
  const modelVersions = options.modelVersions ?? [];
  const configurations = options.configurations ?? {};

  const selected = (): ProcessElement[] => {
    const depth = { none: 0, direct: 1, all: Infinity }[process.load_children];
    const name = process.element_name_contains?.toLowerCase();
    return elements
      .filter((element) => element.depth <= depth)
      .filter((element) => !process.element_type || element.type === process.element_type)
      .filter((element) => !name || element.name.toLowerCase().includes(name))
      .filter((element) => !process.ml_class_id || element.classIds?.includes(process.ml_class_id))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((element) => ({
        id: element.id,
        type_id: element.type,
        type: element.type,
        name: element.name,
        confidence: null,
        image_id: null,
        image_width: null,
        image_height: null,
        image_url: null,
        polygon: null,
        rotation_angle: 0,
        mirrored: false,
      }));
  };

  const runJson = (
    versionId: string,
    fields: Partial<ProcessWorkerRun> & { processId?: string } = {},
  ): ProcessWorkerRun | null => {
    const version = versions.find((item) => item.id === versionId);
    if (!version) return null;
    const { processId, ...rest } = fields;
    return {
      id: uuid(),
      parents: [],
      worker_version: {
        id: version.id,
        worker: version.worker,
        version: version.version,
        configuration: version.configuration,
        state: version.state,
        revision: null,
        created: version.created,
      },
      configuration: null,
      model_version: null,
      process: { id: processId ?? process.id, corpus: corpus.id, name: null, mode: 'workers' },
      created: '2024-06-01T10:00:00Z',
      summary: `Worker ${version.worker.name} @ ${version.version}`,
      ...rest,
    };
  };

  /** Whether giving `runId` these parents makes a path lead back to it. */
  const makesCycle = (runId: string, parents: string[]): boolean => {
    const seen = new Set<string>();
    const stack = [...parents];
    while (stack.length) {
      const next = stack.pop()!;
      if (next === runId) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(runs.find((run) => run.id === next)?.parents ?? []));
    }
    return false;
  };

  const tooLate = () => invalid(null, 'The worker runs of a started process cannot be changed.');

  const setConfiguration = (run: ProcessWorkerRun, id: string | null): Response | null => {
    if (id === null) {
      run.configuration = null;
      return null;
    }
    const found = (configurations[run.worker_version.worker.id] ?? []).find(
      (item) => item.id === id,
    );
    if (!found) return invalid('configuration_id', 'Invalid pk.');
    if (found.archived) {
      return invalid('configuration_id', 'An archived configuration cannot be used.');
    }
    run.configuration = found;
    return null;
  };

  const setModelVersion = (run: ProcessWorkerRun, id: string | null): Response | null => {
    if (id === null) {
      run.model_version = null;
      return null;
    }
    const found = modelVersions.find((item) => item.id === id);
    if (!found) return invalid('model_version_id', 'Invalid pk.');
    run.model_version = { id: found.id, model: found.model, tag: found.tag, state: found.state };
    return null;
  };

  const answer = (call: Call): Response => {
    const page = Number(call.query.get('page') ?? '1');
    const size = Number(call.query.get('page_size') ?? '20');
    const paged = <T,>(list: T[]) => json(200, pageOf(list, page, size, link(call.path)));
    const body = (call.body ?? {}) as Record<string, unknown>;

    if (call.path === `/corpus/${corpus.id}/`) return json(200, corpus);
    if (call.path === `/corpus/${corpus.id}/classes/`) return paged(options.classes ?? []);
    if (call.path === `/process/${process.id}/`) {
      if (call.method === 'PATCH') {
        if (process.tasks.length)
          return invalid(null, 'The filters of a started process cannot change.');
        if (
          body.element_type !== undefined &&
          body.element_type !== null &&
          !corpus.types.some((type) => type.slug === body.element_type)
        ) {
          return invalid('element_type', 'This type does not exist in this project.');
        }
        Object.assign(process, body);
      }
      return json(200, process);
    }
    if (call.path === `/process/${process.id}/elements/`) {
      const all = selected();
      const offset = Number(call.query.get('cursor') ?? '0');
      const results = all.slice(offset, offset + size);
      const next =
        offset + size < all.length
          ? `http://localhost/api/v1${call.path}?cursor=${offset + size}&with_count=true`
          : null;
      return json(200, {
        next,
        previous: null,
        results,
        ...(call.query.get('with_count') === 'true' ? { count: all.length } : {}),
      });
    }
    if (call.path === `/process/${process.id}/workers/`) {
      if (call.method === 'POST') {
        if (process.tasks.length) return tooLate();
        const versionId = String(body.worker_version_id ?? '');
        const version = versions.find((item) => item.id === versionId);
        if (!version) return invalid('worker_version_id', 'Invalid pk.');
        const existing = runs.find(
          (run) =>
            run.worker_version.id === versionId &&
            run.configuration === null &&
            run.model_version === null,
        );
        if (existing && !body.configuration_id && !body.model_version_id) {
          return apiError(
            409,
            [
              {
                attr: null,
                detail:
                  'A worker run already exists with this worker version, model and configuration.',
                code: 'conflict',
              },
            ],
            { existing_id: existing.id },
          );
        }
        const run = runJson(versionId)!;
        const problem =
          setConfiguration(run, (body.configuration_id as string | null) ?? null) ??
          setModelVersion(run, (body.model_version_id as string | null) ?? null);
        if (problem) return problem;
        runs.push(run);
        return json(201, run);
      }
      return paged(runs);
    }
    const run = /^\/process\/workers\/([^/]+)\/$/.exec(call.path);
    if (run) {
      const found = runs.find((item) => item.id === run[1]);
      if (!found) return notFound();
      if (call.method === 'DELETE') {
        if (process.tasks.length) return tooLate();
        runs.splice(runs.indexOf(found), 1);
        for (const other of runs) other.parents = other.parents.filter((id) => id !== found.id);
        return json(204, null);
      }
      if (call.method === 'PATCH') {
        if (process.tasks.length) return tooLate();
        if (body.parents !== undefined) {
          const parents = body.parents as string[];
          if (parents.some((id) => !runs.some((other) => other.id === id) || id === found.id)) {
            return invalid('parents', 'Parents must be other worker runs of the same process.');
          }
          if (makesCycle(found.id, parents)) {
            return invalid('parents', 'Worker runs cannot form a cycle.');
          }
        }
        const problem =
          ('configuration_id' in body
            ? setConfiguration(found, body.configuration_id as string | null)
            : null) ??
          ('model_version_id' in body
            ? setModelVersion(found, body.model_version_id as string | null)
            : null);
        if (problem) return problem;
        if (body.parents !== undefined) found.parents = body.parents as string[];
      }
      return json(200, found);
    }
    if (call.path === '/workers/') {
      const name = (call.query.get('name') ?? '').toLowerCase();
      return paged(
        (options.workers ?? []).filter((worker) =>
          `${worker.name} ${worker.slug}`.toLowerCase().includes(name),
        ),
      );
    }
    const recommended = /^\/workers\/([^/]+)\/versions\/recommended\/$/.exec(call.path);
    if (recommended) {
      const id = options.recommended?.[recommended[1]!];
      const found = versions.find((item) => item.id === id);
      return found ? json(200, found) : notFound();
    }
    const workerVersions = /^\/workers\/([^/]+)\/versions\/$/.exec(call.path);
    if (workerVersions) {
      return paged(versions.filter((item) => item.worker.id === workerVersions[1]));
    }
    const version = /^\/workers\/versions\/([^/]+)\/$/.exec(call.path);
    if (version) {
      const found = versions.find((item) => item.id === version[1]);
      return found ? json(200, found) : notFound();
    }
    const workerConfigurations = /^\/workers\/([^/]+)\/configurations\/$/.exec(call.path);
    if (workerConfigurations) {
      const archived = call.query.get('archived');
      return paged(
        (configurations[workerConfigurations[1]!] ?? []).filter(
          (item) => archived === null || String(item.archived) === archived,
        ),
      );
    }
    if (call.path === '/models/') {
      const worker = call.query.get('compatible_worker');
      return paged(worker ? (options.models?.[worker] ?? []) : []);
    }
    const modelVersionList = /^\/model\/([^/]+)\/versions\/$/.exec(call.path);
    if (modelVersionList) {
      return paged(modelVersions.filter((item) => item.model.id === modelVersionList[1]));
    }
    if (call.path === '/process/') {
      return paged(
        call.query.get('mode') === 'template' && call.query.get('corpus') === corpus.id
          ? templates.map((template) => template.process)
          : [],
      );
    }
    const apply = /^\/process\/([^/]+)\/apply\/$/.exec(call.path);
    if (apply && call.method === 'POST') {
      const template = templates.find((item) => item.process.id === apply[1]);
      if (!template) return notFound();
      if (body.process_id !== process.id) return invalid('process_id', 'Invalid pk.');
      if (process.tasks.length) return tooLate();
      const copies = new Map(template.runs.map((item) => [item.id, uuid()]));
      runs.splice(
        0,
        runs.length,
        ...template.runs.map((item) => ({
          ...item,
          id: copies.get(item.id)!,
          parents: item.parents.map((parent) => copies.get(parent)!),
          process: { ...item.process, id: process.id },
        })),
      );
      process.template_id = template.process.id;
      return json(201, process);
    }
    if (call.method === 'POST' && call.path === `/process/${process.id}/template/`) {
      const template = makeProcess(corpus, {
        mode: 'template',
        name: `Template of ${process.name ?? process.id}`,
      });
      templates.push({ process: template, runs: runs.map((item) => ({ ...item })) });
      return json(201, template);
    }
    if (call.path === '/farms/') return paged(options.farms ?? []);
    if (call.method === 'POST' && call.path === `/process/${process.id}/start/`) {
      if (process.tasks.length) return invalid(null, 'This process has already been started.');
      if (!runs.length) return invalid(null, 'This process has no worker runs.');
      const archived = runs.find((item) => item.configuration?.archived);
      if (archived) {
        return invalid(null, 'A worker run uses an archived configuration.');
      }
      const chunks = (body.chunks as number | undefined) ?? 1;
      if (!Number.isInteger(chunks) || chunks < 1 || chunks > 10) {
        return invalid('chunks', 'Ensure this value is less than or equal to 10.');
      }
      const farm = options.farms?.find((item) => item.id === body.farm) ?? null;
      if (body.farm !== undefined && !farm) return invalid('farm', 'Invalid pk.');
      process.tasks = runs.map(
        (item) =>
          ({
            id: uuid(),
            process_id: process.id,
            run: 0,
            slug: item.worker_version.worker.slug,
            state: 'pending',
          }) as Task,
      );
      process.state = 'pending';
      process.started = new Date().toISOString();
      process.chunks = chunks;
      process.farm = farm ?? options.farms?.[0] ?? null;
      return json(201, process);
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  };

  const server = stubFetch(
    async (call) => (await overridden(options.overrides, call)) ?? answer(call),
  );
  return { ...server, process, runs, templates };
}

const root = makeRoot();
const child = (route: { update: (options: never) => unknown }, path: string) =>
  route.update({ id: path, path, getParentRoute: () => root } as never);
const routeTree = routesUnder(root, [
  child(filterRoute, '/process/$id/filter'),
  child(configureRoute, '/process/$id/configure'),
] as never);

export function renderProcessStep(url: string, user: User = admin) {
  return renderRoutes(routeTree as never, {
    url,
    info: makeInfo(),
    user,
    staleTime: APP_STALE_TIME,
  });
}
