/**
 * The workers' activity of a process: how many (worker run, element) pairs are queued, started,
 * processed or in error, each with its share as a bar; polled every 4 s while the process runs.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { activityStatsQuery, isFinished, processQuery } from '@/api/processes';
import type { ActivityStats } from '@/api/processTypes';
import { PageMessage } from '@/components/PageMessage';
import { ProgressBar } from '@/components/ProgressBar';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import { processName } from './labels';

const ROWS: { key: keyof ActivityStats; label: string; tone: 'brand' | 'success' | 'error' }[] = [
  { key: 'queued', label: 'Queued', tone: 'brand' },
  { key: 'started', label: 'Started', tone: 'brand' },
  { key: 'processed', label: 'Processed', tone: 'success' },
  { key: 'error', label: 'Error', tone: 'error' },
];

export function WorkersActivityPage({ id }: { id: string }) {
  const process = useQuery(processQuery(id));
  const running = !!process.data && !isFinished(process.data.state);
  const stats = useQuery(activityStatsQuery(id, running));
  useErrorNotification(process.error);
  useErrorNotification(stats.error);
  useDocumentTitle(['Workers activity', process.data ? processName(process.data) : null]);

  if (stats.isPending) {
    return (
      <PageMessage width="max-w-3xl" loading>
        Loading…
      </PageMessage>
    );
  }
  if (stats.isError) {
    return (
      <PageMessage width="max-w-3xl">
        The workers activity could not be loaded: {errorMessage(stats.error)}
      </PageMessage>
    );
  }
  const total = ROWS.reduce((sum, row) => sum + stats.data[row.key], 0);
  return (
    <section aria-labelledby="activity-heading" className="mx-auto max-w-3xl space-y-4 p-6">
      <h1 id="activity-heading" className="text-2xl font-semibold text-brand-900">
        Workers activity
      </h1>
      <p className="text-sm text-slate-600">
        Process{' '}
        <Link
          to="/process/$id/{-$selectedRun}"
          params={{ id, selectedRun: undefined }}
          className={ui.link}
        >
          {process.data ? processName(process.data) : id}
        </Link>
        {running && ' · updated every 4 seconds while it runs'}
      </p>
      <dl className={`${ui.card} space-y-3`}>
        {ROWS.map((row) => (
          <div key={row.key} className="space-y-1">
            <div className="flex justify-between text-sm">
              <dt className="font-medium text-slate-700">{row.label}</dt>
              <dd className="text-slate-900" data-testid={`activity-${row.key}`}>
                {stats.data[row.key]}
              </dd>
            </div>
            <ProgressBar
              label={row.label}
              value={total ? stats.data[row.key] / total : 0}
              tone={row.tone}
            />
          </div>
        ))}
      </dl>
    </section>
  );
}
