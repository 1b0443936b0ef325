import { useQuery } from '@tanstack/react-query';
import { isJobRunning, jobsListQuery } from '@/api/jobs';
import { useConnectivity } from '@/offline/runtime';

export interface BackgroundJobsSummary {
  /**
   * Every job the server lists, finished ones included: the navbar button is the only way into
   * the modal, where a finished or failed job is read and cleared, so a count of the unfinished
   * ones alone would hide the button (0) while such jobs still wait for the user.
   */
  count: number;
  /** How many of them are queued or running, told beside the count. */
  running: number;
}

/**
 * The caller's jobs for the navbar, read only when `enabled` (verified users, spec 000 §6) and
 * polled every 10 s while the API answers.
 */
export function useBackgroundJobs(enabled: boolean): BackgroundJobsSummary {
  const { online } = useConnectivity();
  const jobs = useQuery({ ...jobsListQuery(online), enabled }).data;
  if (!enabled || !jobs) return { count: 0, running: 0 };
  return { count: jobs.length, running: jobs.filter(isJobRunning).length };
}
