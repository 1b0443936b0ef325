import { useId, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  availableModelVersionsQuery,
  compatibleModelsQuery,
  deleteProcessWorkerRun,
  enabledConfigurationsQuery,
  processConfigurationKeys,
  updateProcessWorkerRun,
  type ProcessWorkerRun,
  type WorkerRunUpdate,
} from '@/api/processConfiguration';
import { workerVersionQuery } from '@/api/workers';
import { notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { runVersionLabel } from './versionLabels';

/** One worker run of the process: its configuration, model version and parents, or removed. */
export function WorkerRunCard({
  run,
  runs,
  corpusId,
  renderWorkerType,
}: {
  run: ProcessWorkerRun;
  /** Every run of the process, to pick parents among the others. */
  runs: ProcessWorkerRun[];
  corpusId: string | null;
  /** The worker type's badge, from the workers feature. */
  renderWorkerType?: (slug: string) => ReactNode;
}) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const worker = run.worker_version.worker;
  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: processConfigurationKeys.workerRuns(run.process.id),
    });
  const update = useMutation({
    mutationFn: (patch: WorkerRunUpdate) => updateProcessWorkerRun(run.id, patch),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  const remove = useMutation({
    mutationFn: () => deleteProcessWorkerRun(run.id),
    onSuccess: refresh,
    onError: (error) => notifyError(error),
  });
  const busy = update.isPending || remove.isPending;
  const others = runs.filter((other) => other.id !== run.id);

  return (
    <article aria-labelledby={titleId} className={`${ui.card} space-y-3`}>
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={titleId} className="font-semibold text-slate-900">
            {worker.name}
          </h3>
          {renderWorkerType?.(worker.type)}
          <span className="font-mono text-sm text-slate-600">{runVersionLabel(run)}</span>
        </div>
        <button
          type="button"
          className={ui.dangerOutlineButton}
          disabled={busy}
          aria-label={`Remove ${worker.name}`}
          onClick={() => remove.mutate()}
        >
          Remove
        </button>
      </header>
      <div className="grid gap-3 sm:grid-cols-2">
        <ConfigurationField
          run={run}
          corpusId={corpusId}
          disabled={busy}
          onChange={(configurationId) => update.mutate({ configuration_id: configurationId })}
        />
        <ModelFields
          run={run}
          disabled={busy}
          onChange={(modelVersionId) => update.mutate({ model_version_id: modelVersionId })}
        />
      </div>
      {others.length > 0 && (
        <fieldset className="space-y-1">
          <legend className={ui.label}>Parents</legend>
          {others.map((other) => (
            <label key={other.id} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className={ui.checkbox}
                checked={run.parents.includes(other.id)}
                disabled={busy}
                onChange={(event) =>
                  update.mutate({
                    parents: event.target.checked
                      ? [...run.parents, other.id]
                      : run.parents.filter((parent) => parent !== other.id),
                  })
                }
              />
              {other.summary || other.worker_version.worker.name}
            </label>
          ))}
        </fieldset>
      )}
    </article>
  );
}

/** Enabled configurations only: an archived one cannot be chosen in a process (spec 000 §4). */
function ConfigurationField({
  run,
  corpusId,
  disabled,
  onChange,
}: {
  run: ProcessWorkerRun;
  corpusId: string | null;
  disabled: boolean;
  onChange: (configurationId: string | null) => void;
}) {
  const id = useId();
  const worker = run.worker_version.worker;
  const configurations = useQuery(enabledConfigurationsQuery(worker.id));
  const enabled = configurations.data ?? [];
  const current = run.configuration;
  const currentArchived = !!current && !enabled.some((item) => item.id === current.id);
  return (
    <div>
      <label htmlFor={id} className={ui.label}>
        Configuration
      </label>
      <select
        id={id}
        className={ui.input}
        value={current?.id ?? ''}
        disabled={disabled || configurations.isPending}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">No configuration</option>
        {currentArchived && (
          <option value={current.id} disabled>
            {current.name} (archived)
          </option>
        )}
        {enabled.map((configuration) => (
          <option key={configuration.id} value={configuration.id}>
            {configuration.name}
          </option>
        ))}
      </select>
      {currentArchived && configurations.isSuccess && (
        <p className={ui.fieldError}>
          This configuration is archived: choose another one before starting.
        </p>
      )}
      <p className={ui.help}>
        <Link
          to="/process/workers/$workerId"
          params={{ workerId: worker.id }}
          search={corpusId ? { corpus: corpusId } : {}}
          className={ui.link}
        >
          Configure a new one
        </Link>
      </p>
    </div>
  );
}

/** A model and one of its available versions, when the worker version uses models at all. */
function ModelFields({
  run,
  disabled,
  onChange,
}: {
  run: ProcessWorkerRun;
  disabled: boolean;
  onChange: (modelVersionId: string | null) => void;
}) {
  const id = useId();
  const workerId = run.worker_version.worker.id;
  // The run's version carries no model usage: the version itself says it.
  const version = useQuery(workerVersionQuery(run.worker_version.id));
  const usage = version.data?.model_usage;
  const uses = !!usage && usage !== 'disabled';
  const models = useQuery({ ...compatibleModelsQuery(workerId), enabled: uses });
  const [modelId, setModelId] = useState(run.model_version?.model.id ?? '');
  const modelVersions = useQuery({
    ...availableModelVersionsQuery(modelId),
    enabled: uses && !!modelId,
  });
  if (!uses) return null;

  const modelChoices = models.data ?? [];
  const current = run.model_version;
  const currentModelListed =
    !current || modelChoices.some((model) => model.id === current.model.id);
  const versionChoices = modelVersions.data ?? [];
  const currentVersionListed =
    !current ||
    current.model.id !== modelId ||
    versionChoices.some((item) => item.id === current.id);

  return (
    <div className="space-y-2">
      <div>
        <label htmlFor={`${id}-model`} className={ui.label}>
          Model
        </label>
        <select
          id={`${id}-model`}
          className={ui.input}
          value={modelId}
          disabled={disabled || models.isPending}
          onChange={(event) => {
            setModelId(event.target.value);
            if (!event.target.value && current) onChange(null);
          }}
        >
          <option value="">No model</option>
          {!currentModelListed && current && (
            <option value={current.model.id}>{current.model.name}</option>
          )}
          {modelChoices.map((model) => (
            <option key={model.id} value={model.id}>
              {model.name}
            </option>
          ))}
        </select>
        {usage === 'required' && !current && (
          <p className={ui.fieldError}>This worker version requires a model.</p>
        )}
      </div>
      {modelId && (
        <div>
          <label htmlFor={`${id}-version`} className={ui.label}>
            Model version
          </label>
          <select
            id={`${id}-version`}
            className={ui.input}
            value={current?.model.id === modelId ? current.id : ''}
            disabled={disabled || modelVersions.isPending}
            onChange={(event) => event.target.value && onChange(event.target.value)}
          >
            <option value="">Choose a version</option>
            {!currentVersionListed && current && (
              <option value={current.id}>{current.tag ?? current.id.slice(0, 8)}</option>
            )}
            {versionChoices.map((item) => (
              <option key={item.id} value={item.id}>
                {item.tag ?? item.id.slice(0, 8)}
              </option>
            ))}
          </select>
          {modelVersions.isSuccess && versionChoices.length === 0 && (
            <p className={ui.help}>This model has no available version.</p>
          )}
        </div>
      )}
    </div>
  );
}
