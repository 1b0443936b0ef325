import type { QueryClient } from '@tanstack/react-query';
import { fetchJobs, followJob, jobsChanged } from '@/api/jobs';
import { localSelection } from '@/offline/selectionRuntime';

/** The ids of the caller's jobs now; none when they cannot be read (the action goes on). */
async function jobIds(): Promise<Set<string> | null> {
  try {
    return new Set((await fetchJobs()).map((job) => job.id));
  } catch {
    return null;
  }
}

/**
 * Runs a bulk call that answers 204 once its job is queued, without naming it: the caller's
 * jobs read before and after tell which it is. That job is then followed, so the jobs count
 * shows it at once and the selection is read again when it ends (a deletion takes elements out
 * of it; a failure leaves them in).
 */
export async function scheduleSelectionJob(
  queryClient: QueryClient,
  send: () => Promise<void>,
): Promise<void> {
  const before = await jobIds();
  await send();
  const after = before && (await jobIds());
  const started = after ? [...after].filter((id) => !before.has(id)) : [];
  for (const id of started) followJob(queryClient, id, () => void localSelection.refresh());
  if (started.length === 0) await jobsChanged(queryClient);
}
