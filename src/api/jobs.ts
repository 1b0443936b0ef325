/**
 * Background jobs (spec 000 §3 Job, §7 Jobs): one job with its result (GET /jobs/{id}/, an
 * addition of ours that imports are followed through), and DestroyJob, which stops a started
 * job or deletes another.
 */
import { queryOptions } from '@tanstack/react-query';
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
  detail: (id: string) => [...jobKeys.all, 'detail', id] as const,
};

export function isJobRunning(job: Pick<Job, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'started';
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
