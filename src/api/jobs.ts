/**
 * Background jobs (spec 000 §3 Job, §7 Jobs): the caller's jobs (GET /jobs/), one job with its
 * result (GET /jobs/{id}/, an addition of ours that imports are followed through), and
 * DestroyJob, which stops a started job or deletes another.
 */
import { useEffect } from 'react';
import {
  onlineManager,
  queryOptions,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { api } from './client';
import { ApiError } from './errors';

export type JobStatus = 'queued' | 'started' | 'processed' | 'error';

export interface Job {
  id: string;
  description: string;
  status: JobStatus;
  /** 0 to 1. */
  progress: number | null;
  enqueued_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface JobDetail extends Job {
  kind: string;
  corpus_id: string | null;
  /** What the job produced once ended (an import report for imports); null before. */
  result: unknown;
  error: string | null;
}

/** What an import job produces (the server's ImportReport). */
export interface ImportReport {
  /** The folder the import created, or null. */
  folder_id: string | null;
  /** Where to look at the result: the created folder, else the folder imported into. */
  element_id: string | null;
  folders: number;
  pages: number;
  regions: number;
  lines: number;
  transcriptions: number;
  images: number;
  types_created: string[];
  problems: { file: string; reason: string }[];
  skipped: string[];
  stopped: boolean;
}

export const jobKeys = {
  all: ['jobs'] as const,
  list: () => [...jobKeys.all, 'list'] as const,
  detail: (id: string) => [...jobKeys.all, 'detail', id] as const,
};

/** Spec 000 §9: the jobs list is read again every 10 s. */
export const JOBS_POLL_MS = 10_000;

export function isJobRunning(job: Pick<Job, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'started';
}

/** The caller's latest jobs, newest first (a plain array, as Arkindex answers). */
export function fetchJobs(): Promise<Job[]> {
  return api<Job[]>('/jobs/');
}

export function fetchJob(id: string): Promise<JobDetail> {
  return api<JobDetail>(`/jobs/${id}/`);
}

export async function deleteJob(id: string): Promise<void> {
  await api<null>(`/jobs/${id}/`, { method: 'DELETE' });
}

/**
 * One job; `pollMs` refetches it at that interval while it is queued or started. Polling stops
 * on a 4xx answer (the job is gone or not ours), as process polling does (spec 000 §4).
 */
export function jobQuery(id: string, pollMs: number | false = false) {
  return queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: () => fetchJob(id),
    refetchInterval: (query) => {
      if (pollMs === false) return false;
      const { error, data } = query.state;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
      return !data || isJobRunning(data) ? pollMs : false;
    },
  });
}

/**
 * The caller's jobs, read every 10 s while `polling` says so (the app stops it offline).
 * Polling stops on a 4xx answer: the user is no longer allowed to list jobs.
 */
export function jobsListQuery(polling: boolean = true) {
  return queryOptions({
    queryKey: jobKeys.list(),
    queryFn: fetchJobs,
    refetchInterval: (query) => {
      const { error } = query.state;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
      return polling ? JOBS_POLL_MS : false;
    },
  });
}

/** Tells the jobs list a job was started, stopped or deleted, so the navbar count follows. */
export function jobsChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: jobKeys.list() });
}

/** How often a job this tab started is read while nothing else reads it. */
export const FOLLOW_POLL_MS = 3000;

function endedIn(data: unknown, jobId: string): Job | null {
  const jobs = Array.isArray(data) ? (data as Job[]) : data ? [data as Job] : [];
  const job = jobs.find((candidate) => candidate.id === jobId);
  return job && !isJobRunning(job) ? job : null;
}

type JobEnd = (job: Job | null) => void;

/** The jobs each query client follows, so a job followed twice is still read once. */
const followed = new WeakMap<QueryClient, Map<string, JobEnd[]>>();

/**
 * Follows a job this tab started (an import, a populate, a bulk action) until it ends, even
 * once the screen that started it is gone: the jobs list is then read again, so the navbar and
 * the Background jobs modal show the end at once rather than at the next 10 s poll, and
 * `onEnd` runs (with null when the job vanished: stopped and deleted). Whatever reads the job
 * already (an import's progress) is reused; otherwise the job is read every FOLLOW_POLL_MS while
 * the API answers. Following a job already followed only adds `onEnd`.
 */
export function followJob(
  queryClient: QueryClient,
  jobId: string,
  onEnd?: JobEnd,
  pollMs: number = FOLLOW_POLL_MS,
): void {
  let jobs = followed.get(queryClient);
  if (!jobs) followed.set(queryClient, (jobs = new Map()));
  const waiting = jobs.get(jobId);
  if (waiting) {
    if (onEnd) waiting.push(onEnd);
    return;
  }
  const callbacks = onEnd ? [onEnd] : [];
  jobs.set(jobId, callbacks);

  const detailKey = jobKeys.detail(jobId);
  const finish = (job: Job | null) => {
    unsubscribe();
    clearInterval(timer);
    jobs.delete(jobId);
    void jobsChanged(queryClient);
    for (const callback of callbacks) callback(job);
  };
  const check = () => {
    if (jobs.get(jobId) !== callbacks) return;
    const detail = queryClient.getQueryState(detailKey);
    const error = detail?.error;
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return finish(null);
    const ended =
      endedIn(detail?.data, jobId) ?? endedIn(queryClient.getQueryData(jobKeys.list()), jobId);
    if (ended) finish(ended);
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.query.queryKey[0] === jobKeys.all[0]) check();
  });
  const timer = setInterval(() => {
    if (!onlineManager.isOnline()) return;
    // A screen polling the job keeps it fresh; only when none does is it read here.
    void queryClient
      .fetchQuery({ ...jobQuery(jobId), staleTime: pollMs / 2, retry: false })
      .catch(() => undefined);
  }, pollMs);
  // The new job shows in the count now, not at the next poll.
  void jobsChanged(queryClient);
  check();
}

/**
 * For a request that starts jobs without naming them (the selection's bulk actions answer 204):
 * runs `start`, then follows (followJob) each job the list holds that it did not hold before.
 * The list is read first if this tab has not read it yet, so older jobs are never taken for
 * new ones.
 */
export async function followJobsStartedBy<T>(
  queryClient: QueryClient,
  start: () => Promise<T>,
  onEnd?: JobEnd,
): Promise<T> {
  const listed = () => queryClient.fetchQuery({ ...jobsListQuery(), staleTime: 0, retry: false });
  const known =
    queryClient.getQueryData<Job[]>(jobKeys.list()) ?? (await listed().catch(() => null));
  const result = await start();
  if (known) {
    const before = new Set(known.map((job) => job.id));
    void listed()
      .then((jobs) => {
        for (const job of jobs) if (!before.has(job.id)) followJob(queryClient, job.id, onEnd);
      })
      .catch(() => undefined);
  }
  return result;
}

/** Follows the job (followJob) from a screen; the following outlives the screen. */
export function useFollowJob(jobId: string | null | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (jobId) followJob(queryClient, jobId);
  }, [queryClient, jobId]);
}
