/**
 * The processes screens as the app wires them (the real route files), over a small stand-in for
 * the processes API with the contract's rules: list filters, stop only while pending or
 * running, delete refused while running and scheduled (202) for a process with tasks, retry only
 * when finished, clear only without tasks, admin rights from the project.
 */
import { createRoute, useLocation } from '@tanstack/react-router';
import { Route as processesRoute } from '@/routes/process/index';
import { Route as detailsRoute } from '@/routes/process/$id/{-$selectedRun}';
import { Route as templateDetailsRoute } from '@/routes/process/$id/template-details';
import { Route as activityRoute } from '@/routes/process/$id/workers-activity';
import { Route as processWaitRoute } from '@/routes/process/$id/wait';
import { Route as corpusWaitRoute } from '@/routes/corpus/$corpusId/wait';
import { Route as agentsRoute } from '@/routes/process/agents';
import { FINISHED_STATES } from '@/api/processTypes';
import type {
  ActivityStats,
  Agent,
  Artifact,
  Process,
  ProcessState,
  Task,
} from '@/api/processTypes';
import type { ProcessWorkerRun } from '@/api/processes';
import type { Corpus, Features, User } from '@/api/types';
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

export const uuid = idSequence('d000');
export const me: User = userWith(uuid(), { display_name: 'Grace Hopper' });
export const other = { id: uuid(), display_name: 'Alan Turing' };

const root = makeRoot();
const mount = (route: { update: (options: never) => unknown }, path: string) =>
  route.update({ id: path, path, getParentRoute: () => root } as never);

/** Pages of the create flow a wait page leads to, standing in for theirs. */
function Landed() {
  const location = useLocation();
  return <p data-testid="elsewhere">Now at {location.href}</p>;
}
const landing = (path: string) =>
  createRoute({ getParentRoute: () => root, path, component: Landed });

const routeTree = routesUnder(root, [
  landing('/process/$id/filter'),
  landing('/process/$id/datasets'),
  mount(processesRoute, '/process/'),
  mount(agentsRoute, '/process/agents'),
  mount(templateDetailsRoute, '/process/$id/template-details'),
  mount(activityRoute, '/process/$id/workers-activity'),
  mount(processWaitRoute, '/process/$id/wait'),
  mount(corpusWaitRoute, '/corpus/$corpusId/wait'),
  mount(detailsRoute, '/process/$id/{-$selectedRun}'),
] as never);

export function makeCorpus(rights: Corpus['rights'] = ['read', 'write', 'admin']): Corpus {
  return corpusWith({ id: uuid(), name: 'Letters', public: false, rights, types: [] });
}

export function makeProcess(corpus: Corpus | null, fields: Partial<Process> = {}): Process {
  return {
    id: uuid(),
    name: 'Recognize letters',
    mode: 'workers',
    corpus: corpus?.id ?? null,
    corpus_name: corpus?.name ?? null,
    state: 'unscheduled',
    creator: { id: me.id, display_name: me.display_name },
    created: new Date(Date.now() - 3 * 3600 * 1000).toISOString(),
    updated: null,
    started: null,
    finished: null,
    activity_state: 'disabled',
    element: null,
    element_type: null,
    element_name_contains: null,
    load_children: 'none',
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

export function makeTask(process: Process, fields: Partial<Task> = {}): Task {
  return {
    id: uuid(),
    process_id: process.id,
    run: 0,
    depth: 0,
    slug: 'tesseract',
    state: 'pending',
    parents: [],
    original_task_id: null,
    requires_gpu: false,
    shm_size: null,
    worker_run: null,
    agent: null,
    chunk: null,
    elements_count: 3,
    attempts: 0,
    created: new Date().toISOString(),
    updated: new Date().toISOString(),
    started: null,
    finished: null,
    logs: '',
    ...fields,
  };
}

export function makeWorkerRun(name: string): ProcessWorkerRun {
  return {
    id: uuid(),
    summary: `Worker ${name} @ 1`,
    parents: [],
    worker_version: {
      id: uuid(),
      worker: { id: uuid(), name, slug: name.toLowerCase(), type: 'recognizer' },
      version: 1,
      revision: null,
    },
    model_version: null,
    configuration: null,
  };
}

/** The farm agents join unless a test names another. */
export const DEFAULT_FARM = { id: uuid(), name: 'Default farm' };

export function makeAgent(hostname: string, fields: Partial<Agent> = {}): Agent {
  return {
    id: uuid(),
    hostname,
    farm: DEFAULT_FARM,
    active: true,
    last_ping: new Date(Date.now() - 5000).toISOString(),
    slots: 4,
    cpu_cores: 8,
    ram_total: 16e9,
    gpus: 0,
    running_tasks: 1,
    cpu_load: null,
    ram_used: null,
    ...fields,
  };
}

export interface FakeProcessesOptions {
  processes?: Process[];
  corpora?: Corpus[];
  workerRuns?: Record<string, ProcessWorkerRun[]>;
  artifacts?: Record<string, Artifact[]>;
  activity?: Record<string, ActivityStats>;
  agents?: Agent[];
  user?: User;
  overrides?: Record<string, Handler>;
}

const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
const forbidden = () =>
  apiError(403, [
    {
      attr: null,
      detail: 'You do not have permission to perform this action.',
      code: 'permission_denied',
    },
  ]);
const badRequest = (detail: string) => apiError(400, [{ attr: null, detail }]);
const finished = (state: ProcessState) => FINISHED_STATES.includes(state);

/** The processes API of the contract, small enough to read. */
export function fakeProcessesServer(options: FakeProcessesOptions = {}) {
  const processes = [...(options.processes ?? [])];
  const corpora = options.corpora ?? [];
  const workerRuns: Record<string, ProcessWorkerRun[]> = { ...options.workerRuns };
  const user = options.user ?? me;

  const isAdmin = (process: Process) =>
    user.is_admin ||
    !!corpora.find((corpus) => corpus.id === process.corpus)?.rights.includes('admin');
  const allTasks = () => processes.flatMap((process) => process.tasks);
  const latestRun = (process: Process) => Math.max(-1, ...process.tasks.map((task) => task.run));
  /** A process' state: its latest run's tasks' (contract: deriveProcessState, simplified). */
  const refresh = (process: Process) => {
    const run = latestRun(process);
    const states = process.tasks.filter((task) => task.run === run).map((task) => task.state);
    const order: ProcessState[] = [
      'running',
      'stopping',
      'pending',
      'unscheduled',
      'error',
      'failed',
      'stopped',
      'cancelled',
      'completed',
    ];
    process.state = states.length ? order.find((state) => states.includes(state))! : 'unscheduled';
  };

  const list = (call: Call) => {
    const page = Number(call.query.get('page') ?? '1');
    const size = Number(call.query.get('page_size') ?? '20');
    const name = (call.query.get('name') ?? '').toLowerCase();
    const mode = call.query.get('mode');
    const state = call.query.get('state');
    const found = processes.filter(
      (process) =>
        (process.name ?? '').toLowerCase().includes(name) &&
        (!mode || process.mode === mode) &&
        (!state || process.state === state) &&
        (call.query.get('created') !== 'true' || process.creator?.id === user.id) &&
        (call.query.get('started') !== 'true' || process.started !== null),
    );
    const items = found.map(({ tasks: _tasks, ...item }) => item);
    return json(
      200,
      pageOf(items, page, size, (n) => `http://localhost/api/v1/process/?page=${n}`),
    );
  };

  const processCall = (process: Process, action: string | undefined, call: Call): Response => {
    if (!action && call.method === 'GET') return json(200, process);
    if (!isAdmin(process) && action !== 'select-failures') return forbidden();
    if (!action && call.method === 'PATCH') {
      if ((call.body as { state?: string }).state === 'stopping') {
        if (process.state !== 'pending' && process.state !== 'running') {
          return badRequest('Only a pending or running process can be stopped.');
        }
        const run = latestRun(process);
        for (const task of process.tasks.filter((item) => item.run === run)) {
          if (task.state === 'running') task.state = 'stopping';
          else if (task.state === 'pending' || task.state === 'unscheduled') task.state = 'stopped';
        }
        refresh(process);
      }
      return json(200, process);
    }
    if (!action && call.method === 'DELETE') {
      if (['pending', 'running', 'stopping'].includes(process.state)) {
        return badRequest('A process can only be deleted when it is not running.');
      }
      processes.splice(processes.indexOf(process), 1);
      return json(process.tasks.length ? 202 : 204, null);
    }
    if (action === 'retry' && call.method === 'POST') {
      if (!finished(process.state)) return badRequest('This process is not finished.');
      const run = latestRun(process) + 1;
      process.tasks.push(makeTask(process, { run, state: 'pending' }));
      refresh(process);
      return json(200, process);
    }
    if (action === 'clear' && call.method === 'DELETE') {
      if (process.tasks.length) return badRequest('This process has tasks.');
      workerRuns[process.id] = [];
      return json(204, null);
    }
    if (action === 'select-failures' && call.method === 'POST') return json(204, null);
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  };

  const taskCall = (task: Task, action: string | undefined, call: Call): Response => {
    const process = processes.find((item) => item.id === task.process_id)!;
    if (!action && call.method === 'GET') return json(200, task);
    if (action === 'artifacts') return json(200, options.artifacts?.[task.id] ?? []);
    if (!isAdmin(process)) return forbidden();
    if (!action && call.method === 'PATCH') {
      if (finished(task.state)) return badRequest('This task is finished.');
      task.state = task.state === 'running' ? 'stopping' : 'stopped';
      refresh(process);
      return json(200, task);
    }
    if (action === 'restart' && call.method === 'POST') {
      if (!finished(task.state) || task.state === 'completed') {
        return badRequest('Only a finished task that did not complete can be restarted.');
      }
      const created = makeTask(process, {
        run: task.run,
        slug: task.slug,
        worker_run: task.worker_run,
        state: 'pending',
        original_task_id: task.id,
      });
      process.tasks.push(created);
      refresh(process);
      return json(201, created);
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  };

  const answer = (call: Call): Response => {
    if (call.path === '/process/') return list(call);
    if (call.path === '/agents/') {
      if (!user.is_admin) return forbidden();
      const page = Number(call.query.get('page') ?? '1');
      return json(
        200,
        pageOf(options.agents ?? [], page, 20, (n) => `http://localhost/api/v1/agents/?page=${n}`),
      );
    }
    const agent = /^\/agent\/([^/]+)\/$/.exec(call.path);
    if (agent) {
      if (!user.is_admin) return forbidden();
      const found = (options.agents ?? []).find((item) => item.id === agent[1]);
      if (!found) return notFound();
      const running = allTasks().filter(
        (task) => task.agent?.id === found.id && ['running', 'stopping'].includes(task.state),
      );
      return json(200, { ...found, running });
    }
    const corpus = /^\/corpus\/([^/]+)\/$/.exec(call.path);
    if (corpus) {
      const found = corpora.find((item) => item.id === corpus[1]);
      return found ? json(200, found) : notFound();
    }
    const runs = /^\/process\/([^/]+)\/workers\/$/.exec(call.path);
    if (runs) {
      const list = workerRuns[runs[1]!] ?? [];
      return json(
        200,
        pageOf(list, 1, 500, () => ''),
      );
    }
    const stats = /^\/process\/([^/]+)\/activity-stats\/$/.exec(call.path);
    if (stats) {
      const found = options.activity?.[stats[1]!];
      return found ? json(200, found) : notFound();
    }
    const run = /^\/process\/workers\/([^/]+)\/$/.exec(call.path);
    if (run) {
      const entry = Object.entries(workerRuns)
        .flatMap(([processId, list]) => list.map((item) => ({ processId, item })))
        .find(({ item }) => item.id === run[1]);
      if (!entry) return notFound();
      const process = processes.find((item) => item.id === entry.processId);
      return json(200, {
        ...entry.item,
        worker_version: { ...entry.item.worker_version, created: '2024-05-03T10:00:00Z' },
        process: { id: entry.processId, name: process?.name ?? null, state: process?.state },
      });
    }
    const process = /^\/process\/([^/]+)\/(?:([-a-z]+)\/)?$/.exec(call.path);
    if (process) {
      const found = processes.find((item) => item.id === process[1]);
      return found ? processCall(found, process[2], call) : notFound();
    }
    const task = /^\/task\/([^/]+)\/(?:([-a-z]+)\/)?$/.exec(call.path);
    if (task) {
      const found = allTasks().find((item) => item.id === task[1]);
      return found ? taskCall(found, task[2], call) : notFound();
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  };

  const server = stubFetch(
    async (call) => (await overridden(options.overrides, call)) ?? answer(call),
  );
  return { ...server, processes, workerRuns };
}

export function renderProcesses(
  url: string,
  { user = me, features = {} }: { user?: User | null; features?: Partial<Features> } = {},
) {
  return renderRoutes(routeTree as never, {
    url,
    info: makeInfo(features),
    user,
    staleTime: APP_STALE_TIME,
  });
}
