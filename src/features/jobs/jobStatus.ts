/**
 * How a job's status and date read in the Background jobs modal (spec 000 §4). Statuses are
 * plain strings here: an Arkindex instance also answers RQ's `finished` and `failed`, which count
 * as end states like `processed` and `error`.
 */
import type { Job } from '@/api/jobs';

const LABELS: Record<string, string> = {
  queued: 'Queued',
  started: 'Running',
  processed: 'Finished',
  finished: 'Finished',
  error: 'Failed',
  failed: 'Failed',
};

const ENDED = new Set(['processed', 'finished', 'error', 'failed']);

export function statusLabel(status: string): string {
  return LABELS[status] ?? status.charAt(0).toUpperCase() + status.slice(1);
}

export type StatusTone = 'waiting' | 'running' | 'success' | 'error';

export function statusTone(status: string): StatusTone {
  if (status === 'started') return 'running';
  if (status === 'error' || status === 'failed') return 'error';
  if (ENDED.has(status)) return 'success';
  return 'waiting';
}

/**
 * The moment a row names: when it was queued, when it started, or when it ended; a date the
 * server left out falls back to the one before it.
 */
export function jobMoment(job: Job): { verb: string; at: string } {
  const status: string = job.status;
  if (ENDED.has(status) && job.ended_at) return { verb: 'Ended', at: job.ended_at };
  if (status !== 'queued' && job.started_at) return { verb: 'Started', at: job.started_at };
  return { verb: 'Queued', at: job.enqueued_at };
}
