/**
 * Processes, their tasks, artifacts, farms and agents (spec 000 §3 Process, Task, Agent, Farm;
 * §7 Process, Tasks and agents): the fetchers, the one query-key factory and the query options
 * the processes screens share. Polling follows spec 000 §9 (process and task every 4 s) and §4
 * (a 4xx stops it); queries pause on their own while the API is out of reach.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, apiUrl, apiWithStatus, type Page } from './client';
import { isFinished } from '@/lib/processStates';
import { ApiError } from './errors';
import {
  type ActivityStats,
  type Agent,
  type AgentWithTasks,
  type Artifact,
  type Farm,
  type Process,
  type ProcessListItem,
  type ProcessMode,
  type ProcessState,
  type Task,
} from './processTypes';

export const PROCESS_POLL_MS = 4000;
export const TASK_POLL_MS = 4000;

export { isFinished };

/** The processes list's address, as the API filters it. */
export interface ProcessListQuery {
  page: number;
  pageSize: number;
  name: string;
  mode: ProcessMode | '';
  state: ProcessState | '';
  /** Only the caller's own processes. */
  created: boolean;
  /** Only processes that were started. */
  started: boolean;
}

export const processKeys = {
  all: ['processes'] as const,
  lists: () => [...processKeys.all, 'list'] as const,
  list: (query: ProcessListQuery) => [...processKeys.lists(), query] as const,
  detail: (id: string) => [...processKeys.all, 'detail', id] as const,
  workerRuns: (id: string) => [...processKeys.all, 'worker-runs', id] as const,
  activityStats: (id: string) => [...processKeys.all, 'activity-stats', id] as const,
  task: (id: string) => [...processKeys.all, 'task', id] as const,
  artifacts: (taskId: string) => [...processKeys.all, 'artifacts', taskId] as const,
  farms: () => [...processKeys.all, 'farms'] as const,
  agents: (page: number) => [...processKeys.all, 'agents', page] as const,
  agent: (id: string) => [...processKeys.all, 'agent', id] as const,
};

export function fetchProcesses(query: ProcessListQuery): Promise<Page<ProcessListItem>> {
  return api<Page<ProcessListItem>>('/process/', {
    query: {
      page: query.page,
      page_size: query.pageSize,
      name: query.name,
      mode: query.mode,
      state: query.state,
      created: query.created ? 'true' : undefined,
      started: query.started ? 'true' : undefined,
    },
  });
}

export function fetchProcess(id: string): Promise<Process> {
  return api<Process>(`/process/${id}/`);
}

/** Stops the latest run: the server moves its tasks to stopping or stopped. */
export function stopProcess(id: string): Promise<Process> {
  return api<Process>(`/process/${id}/`, { method: 'PATCH', body: { state: 'stopping' } });
}

/**
 * Deletes a process. A process with tasks is deleted later by a job: the server answers 202,
 * and `scheduled` is true.
 */
export async function deleteProcess(id: string): Promise<{ scheduled: boolean }> {
  const { status } = await apiWithStatus<null>(`/process/${id}/`, { method: 'DELETE' });
  return { scheduled: status === 202 };
}

export function retryProcess(id: string): Promise<Process> {
  return api<Process>(`/process/${id}/retry/`, { method: 'POST' });
}

/** Removes every worker run of a process that has no tasks yet. */
export async function clearProcess(id: string): Promise<void> {
  await api<null>(`/process/${id}/clear/`, { method: 'DELETE' });
}

/** Adds the elements the process' workers failed on to the caller's selection. */
export async function selectFailures(id: string): Promise<void> {
  await api<null>(`/process/${id}/select-failures/`, { method: 'POST' });
}

/** A worker run of a process, as GET /process/{id}/workers/ lists it. */
export interface ProcessWorkerRun {
  id: string;
  summary: string;
  parents: string[];
  worker_version: {
    id: string;
    worker: { id: string; name: string; slug: string; type: string };
    version: number | null;
    revision: { hash: string } | null;
  };
  model_version: { id: string; model: { id: string; name: string }; tag: string | null } | null;
  configuration: { id: string; name: string } | null;
}

export function fetchProcessWorkerRuns(id: string): Promise<Page<ProcessWorkerRun>> {
  return api<Page<ProcessWorkerRun>>(`/process/${id}/workers/`, { query: { page_size: 500 } });
}

export function fetchActivityStats(id: string): Promise<ActivityStats> {
  return api<ActivityStats>(`/process/${id}/activity-stats/`);
}

export function fetchTask(id: string): Promise<Task> {
  return api<Task>(`/task/${id}/`);
}

export function stopTask(id: string): Promise<Task> {
  return api<Task>(`/task/${id}/`, { method: 'PATCH', body: { state: 'stopping' } });
}

/** A finished task that did not complete runs again as a new task. */
export function restartTask(id: string): Promise<Task> {
  return api<Task>(`/task/${id}/restart/`, { method: 'POST' });
}

export function fetchArtifacts(taskId: string): Promise<Artifact[]> {
  return api<Artifact[]>(`/task/${taskId}/artifacts/`);
}

/** Where the browser downloads an artifact from; each path segment is encoded on its own. */
export function artifactUrl(taskId: string, path: string): string {
  return apiUrl(`/task/${taskId}/artifact/${path.split('/').map(encodeURIComponent).join('/')}`);
}

export function fetchFarms(): Promise<Page<Farm>> {
  return api<Page<Farm>>('/farms/', { query: { page_size: 500 } });
}

export function fetchAgents(page: number): Promise<Page<Agent>> {
  return api<Page<Agent>>('/agents/', { query: { page } });
}

export function fetchAgent(id: string): Promise<AgentWithTasks> {
  return api<AgentWithTasks>(`/agent/${id}/`);
}

/** A 4xx means the resource is gone or out of reach: asking again will not change that. */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/**
 * Every `ms` while the resource is not finished, never after a 4xx (spec 000 §4). While the API
 * is out of reach the fetch a tick starts pauses (network modes), and later ticks join it rather
 * than pile up, so polling waits for the network and goes on once it is back.
 */
function pollWhile<T>(ms: number, running: (data: T | undefined) => boolean) {
  return (query: { state: { data: T | undefined; error: unknown } }): number | false => {
    const { data, error } = query.state;
    if (isClientError(error)) return false;
    return running(data) ? ms : false;
  };
}

/** A page of processes, polled every 4 s while one of them is not finished. */
export function processListQuery(query: ProcessListQuery) {
  return queryOptions({
    queryKey: processKeys.list(query),
    queryFn: () => fetchProcesses(query),
    placeholderData: keepPreviousData,
    refetchInterval: pollWhile<Page<ProcessListItem>>(
      PROCESS_POLL_MS,
      (page) => !!page?.results.some((process) => !isFinished(process.state)),
    ),
  });
}

/** One process, polled every 4 s while its latest run is not finished. */
export function processQuery(id: string) {
  return queryOptions({
    queryKey: processKeys.detail(id),
    queryFn: () => fetchProcess(id),
    refetchInterval: pollWhile<Process>(
      PROCESS_POLL_MS,
      (process) => !process || !isFinished(process.state),
    ),
  });
}

/** One task with its log tail, polled every 4 s while it is not finished. */
export function taskQuery(id: string) {
  return queryOptions({
    queryKey: processKeys.task(id),
    queryFn: () => fetchTask(id),
    refetchInterval: pollWhile<Task>(TASK_POLL_MS, (task) => !task || !isFinished(task.state)),
  });
}

/** A task's artifacts; `polling` while the task runs, as it uploads them when it ends. */
export function artifactsQuery(taskId: string, polling = false) {
  return queryOptions({
    queryKey: processKeys.artifacts(taskId),
    queryFn: () => fetchArtifacts(taskId),
    refetchInterval: pollWhile<Artifact[]>(TASK_POLL_MS, () => polling),
  });
}

export function processWorkerRunsQuery(id: string) {
  return queryOptions({
    queryKey: processKeys.workerRuns(id),
    queryFn: () => fetchProcessWorkerRuns(id),
  });
}

/** The workers' activity counts, polled every 4 s while `polling` (the process runs). */
export function activityStatsQuery(id: string, polling: boolean) {
  return queryOptions({
    queryKey: processKeys.activityStats(id),
    queryFn: () => fetchActivityStats(id),
    refetchInterval: pollWhile<ActivityStats>(PROCESS_POLL_MS, () => polling),
  });
}

export const farmsQuery = queryOptions({
  queryKey: processKeys.farms(),
  queryFn: fetchFarms,
  staleTime: 5 * 60 * 1000,
});

export function agentsQuery(page: number) {
  return queryOptions({
    queryKey: processKeys.agents(page),
    queryFn: () => fetchAgents(page),
    placeholderData: keepPreviousData,
    // The page watches machines at work: their state, load and tasks change by the second.
    refetchInterval: AGENTS_REFRESH_MS,
  });
}

export const AGENTS_REFRESH_MS = 5000;

export function agentQuery(id: string) {
  return queryOptions({
    queryKey: processKeys.agent(id),
    queryFn: () => fetchAgent(id),
    refetchInterval: AGENTS_REFRESH_MS,
  });
}
