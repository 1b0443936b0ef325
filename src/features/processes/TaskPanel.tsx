/**
 * One task: its log, followed while it runs (polled every 4 s, kept at the bottom unless the
 * user scrolled up), its artifacts to download, and Restart (finished, not completed) and Stop.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import {
  artifactUrl,
  artifactsQuery,
  isFinished,
  processKeys,
  restartTask,
  stopTask,
  taskQuery,
} from '@/api/processes';
import type { Task } from '@/api/processTypes';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { formatSize } from '@/lib/formatSize';
import { StateBadge } from './StateBadge';
import { useFollowBottom } from './useFollowBottom';
import { CloseAction } from '@/components/modal/ModalActions';

export function TaskPanel({
  taskId,
  processId,
  admin,
  onClose,
  onRestarted,
}: {
  taskId: string;
  processId: string;
  admin: boolean;
  onClose: () => void;
  onRestarted: (task: Task) => void;
}) {
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  const task = useQuery(taskQuery(taskId));
  const running = !!task.data && !isFinished(task.data.state);
  const artifacts = useQuery(artifactsQuery(taskId, running));
  useErrorNotification(task.error);
  const logs = task.data?.logs ?? '';
  const follow = useFollowBottom<HTMLPreElement>(logs);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: processKeys.task(taskId) });
    await queryClient.invalidateQueries({ queryKey: processKeys.detail(processId) });
  };
  const stop = useMutation({
    mutationFn: () => stopTask(taskId),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  const restart = useMutation({
    mutationFn: () => restartTask(taskId),
    onSuccess: async (created) => {
      await refresh();
      onRestarted(created);
    },
    onError: (error) => notifyError(error),
  });

  const data = task.data;
  const headingId = `task-${taskId}-heading`;
  return (
    <section aria-labelledby={headingId} className={`${ui.card} space-y-3`}>
      <header className="flex flex-wrap items-center gap-3">
        <h3 id={headingId} className="text-lg font-semibold text-slate-900">
          Task {data?.slug ?? taskId.slice(0, 8)}
        </h3>
        {data && <StateBadge state={data.state} />}
        <div className="ml-auto flex gap-2">
          {admin && data && !isFinished(data.state) && data.state !== 'stopping' && (
            <GuardedButton
              blocked={offline}
              disabled={stop.isPending}
              className={ui.dangerOutlineButton}
              onClick={() => stop.mutate()}
            >
              Stop task
            </GuardedButton>
          )}
          {admin && data && isFinished(data.state) && data.state !== 'completed' && (
            <GuardedButton
              blocked={offline}
              disabled={restart.isPending}
              className={ui.secondaryButton}
              onClick={() => restart.mutate()}
            >
              Restart task
            </GuardedButton>
          )}
          <CloseAction onClose={onClose} />
        </div>
      </header>
      {task.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : task.isError ? (
        <p role="alert" className="text-slate-600">
          The task could not be loaded: {errorMessage(task.error)}
        </p>
      ) : (
        <>
          <div>
            <h4 className="mb-1 text-sm font-semibold text-slate-700">Logs</h4>
            <pre
              ref={follow.ref}
              onScroll={follow.onScroll}
              role="log"
              aria-label={`Logs of ${data!.slug}`}
              tabIndex={0}
              className="max-h-96 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100"
            >
              {logs || (running ? 'Waiting for output…' : 'This task has no logs.')}
            </pre>
          </div>
          <div>
            <h4 className="mb-1 text-sm font-semibold text-slate-700">Artifacts</h4>
            {artifacts.isPending ? (
              <p role="status" className="text-sm text-slate-600">
                Loading…
              </p>
            ) : artifacts.isError ? (
              <p className="text-sm text-slate-600">
                The artifacts could not be loaded: {errorMessage(artifacts.error)}
              </p>
            ) : artifacts.data.length === 0 ? (
              <p className="text-sm text-slate-600">This task has no artifacts.</p>
            ) : (
              <ul aria-label="Artifacts" className="divide-y divide-slate-100 text-sm">
                {artifacts.data.map((artifact) => (
                  <li key={artifact.id} className="flex items-center justify-between gap-4 py-1">
                    <a
                      href={artifactUrl(taskId, artifact.path)}
                      download={artifact.path.split('/').pop()}
                      className={`${ui.link} font-mono break-all`}
                    >
                      {artifact.path}
                    </a>
                    <span className="shrink-0 text-slate-500">
                      {formatSize(artifact.size)} · {artifact.content_type}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
