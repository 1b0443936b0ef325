/**
 * process-configure (api part 2 §2.4–2.5): the worker runs a workers process will start with,
 * each with its configuration, model version and parents, templates to reuse a set of runs,
 * and the start with its chunks and farm.
 */
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { processWorkerRunsQuery } from '@/api/processConfiguration';
import type { Process } from '@/api/processTypes';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { AddWorkerRun } from './AddWorkerRun';
import { ProcessStepHeader } from './ProcessStepHeader';
import { ProcessStepLoader } from './ProcessStepLoader';
import { StartedRedirect } from './StartedRedirect';
import { StartProcessForm } from './StartProcessForm';
import { TemplateActions } from './TemplateActions';
import { WorkerRunCard } from './WorkerRunCard';

export interface ProcessConfigurePageProps {
  processId: string;
  /** A worker type's badge, from the workers feature; the route composes it in. */
  renderWorkerType?: (slug: string) => ReactNode;
}

export function ProcessConfigurePage({ processId, renderWorkerType }: ProcessConfigurePageProps) {
  return (
    <ProcessStepLoader processId={processId} step="Configure workers">
      {(process) => <ConfigureView process={process} renderWorkerType={renderWorkerType} />}
    </ProcessStepLoader>
  );
}

function ConfigureView({
  process,
  renderWorkerType,
}: {
  process: Process;
  renderWorkerType?: (slug: string) => ReactNode;
}) {
  const runs = useQuery(processWorkerRunsQuery(process.id));
  useErrorNotification(runs.error);
  const list = runs.data?.results ?? [];

  return (
    <div className="mx-auto max-w-4xl space-y-4 p-6">
      <StartedRedirect process={process} />
      <ProcessStepHeader
        process={process}
        corpusName={process.corpus_name}
        step="Step 2 of 2: choose the workers, then start the process."
        action={
          process.mode === 'dataset' ? (
            <Link
              to="/process/$id/datasets"
              params={{ id: process.id }}
              className={ui.secondaryButton}
            >
              Choose dataset sets
            </Link>
          ) : (
            <Link
              to="/process/$id/filter"
              params={{ id: process.id }}
              className={ui.secondaryButton}
            >
              Filter elements
            </Link>
          )
        }
      />
      <TemplateActions process={process} hasRuns={list.length > 0} />
      <section aria-labelledby="worker-runs" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="worker-runs" className="text-lg font-semibold text-slate-900">
            Workers
          </h2>
          <AddWorkerRun processId={process.id} />
        </div>
        {runs.isPending ? (
          <p role="status" className="text-slate-600">
            Loading…
          </p>
        ) : runs.isError ? (
          <p className="text-red-700">
            The worker runs could not be listed: {errorMessage(runs.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-slate-600">This process has no workers yet.</p>
        ) : (
          <ul className="space-y-3">
            {list.map((run) => (
              <li key={run.id}>
                <WorkerRunCard
                  run={run}
                  runs={list}
                  corpusId={process.corpus}
                  renderWorkerType={renderWorkerType}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <StartProcessForm process={process} hasRuns={list.length > 0} />
    </div>
  );
}
