import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { compatibleWorkersQuery, type Model, type ModelWorker } from '@/api/models';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notifyError } from '@/components/notifications/store';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useCompatibleWorkerChange } from './api';
import { WorkerPicker } from './WorkerPicker';

/** The workers a model works with; contributors add and remove them. */
export function CompatibleWorkersSection({ model, canEdit }: { model: Model; canEdit: boolean }) {
  const workers = useQuery(compatibleWorkersQuery(model.id));
  useErrorNotification(workers.error);
  const change = useCompatibleWorkerChange(model.id);
  const offline = useNeedsNetwork();
  const [picked, setPicked] = useState<ModelWorker | null>(null);
  const linked = workers.data?.results ?? [];

  const add = () => {
    if (!picked || offline) return;
    change.mutate(
      { workerId: picked.id, add: true },
      { onSuccess: () => setPicked(null), onError: (error) => notifyError(error) },
    );
  };

  return (
    <section aria-labelledby="workers-heading" className={`${ui.card} space-y-3 p-6`}>
      <h2 id="workers-heading" className="text-lg font-semibold text-slate-900">
        Compatible workers
      </h2>
      {workers.isPending ? (
        <p role="status" className="text-slate-600">
          Loading…
        </p>
      ) : workers.isError ? (
        <p className="text-slate-600">The compatible workers could not be loaded.</p>
      ) : linked.length === 0 ? (
        <p className="text-slate-600">No worker is marked as compatible with this model.</p>
      ) : (
        <ul aria-label="Compatible workers" className="divide-y divide-slate-100">
          {linked.map((worker) => (
            <li key={worker.id} className="flex items-center justify-between gap-2 py-2">
              <span>
                <span className="font-medium text-slate-900">{worker.name}</span>{' '}
                <span className="text-sm text-slate-500">
                  {worker.slug} · {worker.type}
                </span>
              </span>
              {canEdit && (
                <GuardedButton
                  blocked={offline}
                  disabled={change.isPending}
                  className={ui.dangerOutlineButton}
                  aria-label={`Remove ${worker.name}`}
                  onClick={() =>
                    change.mutate(
                      { workerId: worker.id, add: false },
                      { onError: (error) => notifyError(error) },
                    )
                  }
                >
                  Remove
                </GuardedButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form
          className="flex flex-wrap items-end gap-2 border-t border-slate-100 pt-3"
          onSubmit={(event) => {
            event.preventDefault();
            add();
          }}
        >
          <div className="grow">
            <WorkerPicker
              label="Worker to add"
              emptyLabel="Choose a worker"
              value={picked?.id ?? null}
              exclude={linked.map((worker) => worker.id)}
              onChange={setPicked}
            />
          </div>
          <GuardedButton
            type="submit"
            blocked={offline ?? (picked ? null : 'Choose a worker first')}
            disabled={change.isPending}
            className={ui.secondaryButton}
          >
            Add
          </GuardedButton>
        </form>
      )}
    </section>
  );
}
