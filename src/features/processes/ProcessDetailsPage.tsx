/**
 * A process (spec 000 §2 process-details): what it runs on, its actions, its runs, the worker
 * runs and, for the chosen run, its tasks by worker run; a task opens its logs and artifacts.
 * The process is polled every 4 s until it is finished, and no longer after a 4xx.
 */
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { processQuery, processWorkerRunsQuery } from '@/api/processes';
import { serverInfoQuery } from '@/api/serverInfo';
import { PageMessage } from '@/components/PageMessage';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import { relativeTime } from '@/lib/relativeTime';
import { modeLabel, processName } from './labels';
import { ProcessActions } from './ProcessActions';
import { ProcessFilters } from './ProcessFilters';
import { groupByWorkerRun, runNumbers, shownRun } from './runs';
import { StateBadge } from './StateBadge';
import { TaskPanel } from './TaskPanel';
import { TasksTable } from './TasksTable';
import { useProcessAdmin } from './useProcessAdmin';

export function ProcessDetailsPage({
  id,
  selectedRun,
  workerRunModal,
}: {
  id: string;
  selectedRun: number;
  /** The worker run details modal, which the workers feature owns. */
  workerRunModal: (id: string, onClose: () => void) => ReactNode;
}) {
  const process = useQuery(processQuery(id));
  // Budgets are an enterprise feature: only there does a process have one to show.
  const enterprise = !!useQuery(serverInfoQuery).data?.features.enterprise;
  useErrorNotification(process.error);
  const admin = useProcessAdmin(process.data);
  const hasWorkerRuns = process.data?.mode === 'workers' || process.data?.mode === 'template';
  const workerRuns = useQuery({ ...processWorkerRunsQuery(id), enabled: hasWorkerRuns });
  const [openTask, setOpenTask] = useState<string | null>(null);
  const [runModal, setRunModal] = useState<string | null>(null);
  useDocumentTitle([process.data ? processName(process.data) : null]);

  if (process.isPending) {
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  }
  if (process.isError) {
    return (
      <PageMessage width="max-w-4xl">
        The process could not be loaded: {errorMessage(process.error)}
      </PageMessage>
    );
  }
  const data = process.data;
  const runs = runNumbers(data.tasks);
  const run = shownRun(data.tasks, selectedRun);
  const groups = groupByWorkerRun(data.tasks.filter((task) => task.run === run));
  const openInRun = groups.some((group) => group.tasks.some((task) => task.id === openTask));

  return (
    <section aria-labelledby="process-heading" className="mx-auto max-w-6xl space-y-5 p-6">
      <header className="space-y-3">
        <Link to="/process/" search={{}} className={`${ui.link} text-sm`}>
          ‹ Processes
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="process-heading" className="text-2xl font-semibold text-brand-900">
            {processName(data)}
          </h1>
          <StateBadge state={data.state} />
          <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
            {modeLabel(data.mode)}
          </span>
        </div>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
          {data.corpus && (
            <span>
              Project:{' '}
              <Link to="/browse/$corpusId" params={{ corpusId: data.corpus }} className={ui.link}>
                {data.corpus_name ?? data.corpus}
              </Link>
            </span>
          )}
          {data.creator && <span>Created by {data.creator.display_name}</span>}
          <span title={data.created}>Created {relativeTime(data.created)}</span>
          {data.started && <span title={data.started}>Started {relativeTime(data.started)}</span>}
          {data.finished && (
            <span title={data.finished}>Finished {relativeTime(data.finished)}</span>
          )}
          {(data.mode === 'workers' || data.activity_state !== 'disabled') && (
            <Link to="/process/$id/workers-activity" params={{ id: data.id }} className={ui.link}>
              Workers activity
            </Link>
          )}
          {enterprise && (
            <Link to="/process/$id/budget" params={{ id: data.id }} className={ui.link}>
              Budget
            </Link>
          )}
        </p>
        <ProcessFilters process={data} />
        <ProcessActions process={data} admin={admin} />
      </header>

      {hasWorkerRuns && (
        <section aria-labelledby="worker-runs-heading" className="space-y-2">
          <h2 id="worker-runs-heading" className="text-lg font-semibold text-slate-900">
            Worker runs
          </h2>
          {workerRuns.isPending ? (
            <p role="status" className="text-sm text-slate-600">
              Loading…
            </p>
          ) : workerRuns.isError ? (
            <p className="text-sm text-slate-600">The worker runs could not be loaded.</p>
          ) : workerRuns.data.results.length === 0 ? (
            <p className="text-sm text-slate-600">This process has no worker runs.</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
              {workerRuns.data.results.map((workerRun) => (
                <li
                  key={workerRun.id}
                  className="flex items-center justify-between gap-4 px-3 py-2"
                >
                  <span className="text-sm">{workerRun.summary}</span>
                  <button
                    type="button"
                    className={ui.secondaryButton}
                    aria-label={`Details of ${workerRun.summary}`}
                    onClick={() => setRunModal(workerRun.id)}
                  >
                    Details
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <section aria-labelledby="tasks-heading" className="space-y-3">
        <h2 id="tasks-heading" className="text-lg font-semibold text-slate-900">
          Tasks
        </h2>
        {run === null ? (
          <p className="text-sm text-slate-600">This process has no tasks yet.</p>
        ) : (
          <>
            {runs.length > 1 && (
              <nav aria-label="Runs" className="flex flex-wrap gap-1">
                {runs.map((number) => (
                  <Link
                    key={number}
                    to="/process/$id/{-$selectedRun}"
                    params={{ id: data.id, selectedRun: String(number) }}
                    aria-current={number === run ? 'page' : undefined}
                    className={
                      number === run
                        ? 'rounded-md bg-brand-600 px-3 py-1 text-sm font-medium text-white'
                        : 'rounded-md border border-slate-300 bg-white px-3 py-1 text-sm text-slate-700 hover:bg-slate-50'
                    }
                  >
                    Run {number}
                  </Link>
                ))}
              </nav>
            )}
            {groups.map((group) => (
              <TasksTable
                key={group.workerRunId ?? 'other'}
                title={group.title}
                tasks={group.tasks}
                openId={openTask}
                onOpen={(taskId) => setOpenTask(taskId === openTask ? null : taskId)}
              />
            ))}
            {openTask && openInRun && (
              <TaskPanel
                key={openTask}
                taskId={openTask}
                processId={data.id}
                admin={admin}
                onClose={() => setOpenTask(null)}
                onRestarted={(task) => setOpenTask(task.id)}
              />
            )}
          </>
        )}
      </section>
      {runModal && workerRunModal(runModal, () => setRunModal(null))}
    </section>
  );
}
