import { useId, useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { CheckboxField } from '@/components/modal/CheckboxField';
import { ErrorList } from '@/components/modal/ErrorList';
import { Modal } from '@/components/modal/Modal';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { isValidationError } from '@/lib/formErrors';
import {
  deleteWorkerResults,
  modelChoicesQuery,
  modelVersionChoicesQuery,
  resultWorkerVersionsQuery,
  workerConfigurationsQuery,
  type ResultWorkerVersion,
} from './api';
import {
  EMPTY_DELETION_FORM,
  UUID_MAX_LENGTH,
  WORKER_RESULTS_DELETION_SCHEDULED,
  deletionFormErrors,
  deletionParams,
  type ConfigurationChoice,
  type DeletionField,
  type DeletionForm,
} from './deletionForm';

export interface WorkerResultsDeletionModalProps {
  corpusId: string;
  /** Where the results are deleted: an element and what lies below it, else the whole project. */
  element?: { id: string; name: string } | null;
  corpusName?: string;
  onClose: () => void;
}

/** How a worker version reads in a list: its worker, then its tag, number or revision. */
export function workerVersionLabel(version: ResultWorkerVersion): string {
  const which =
    version.tag ??
    (version.version != null
      ? `version ${version.version}`
      : (version.revision_url ?? version.id.slice(0, 8)));
  return `${version.worker.name} (${which})`;
}

/**
 * Delete worker results (spec 000 §5, §6): the results workers produced in a project or under
 * an element, narrowed by worker version, model version and configuration. Project admins only;
 * the server runs it as a background job.
 */
export function WorkerResultsDeletionModal({
  corpusId,
  element = null,
  corpusName,
  onClose,
}: WorkerResultsDeletionModalProps) {
  const [form, setForm] = useState<DeletionForm>(EMPTY_DELETION_FORM);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const offline = useNeedsNetwork();
  const errors = deletionFormErrors(form);
  const blocked = offline ?? (Object.keys(errors).length ? 'Correct the values first' : null);

  const deletion = useMutation({
    mutationFn: () => deleteWorkerResults(corpusId, deletionParams(form, element?.id ?? null)),
    onSuccess: () => {
      notify({ type: 'success', text: WORKER_RESULTS_DELETION_SCHEDULED });
      onClose();
    },
    onError: (error) => {
      if (isValidationError(error)) {
        setServerErrors(Object.values(error.fields).flat());
        return;
      }
      onClose();
      notifyError(error);
    },
  });

  const change = (patch: Partial<DeletionForm>) => {
    setServerErrors([]);
    setForm((previous) => ({ ...previous, ...patch }));
  };

  return (
    <Modal
      title="Delete worker results"
      size="lg"
      onClose={onClose}
      pending={deletion.isPending}
      onSubmit={() => !blocked && deletion.mutate()}
      footer={
        <>
          <button
            type="button"
            className={ui.secondaryButton}
            onClick={onClose}
            disabled={deletion.isPending}
            autoFocus
          >
            Cancel
          </button>
          <button
            type="submit"
            className={ui.dangerButton}
            disabled={!!blocked || deletion.isPending}
            title={blocked ?? undefined}
          >
            {deletion.isPending ? 'Please wait…' : 'Delete'}
          </button>
        </>
      }
    >
      <p>
        {element ? (
          <>
            The results that workers produced on <strong>{element.name}</strong> and the elements
            below it will be deleted
          </>
        ) : (
          <>
            The results that workers produced in{' '}
            {corpusName ? <strong>{corpusName}</strong> : 'this project'} will be deleted
          </>
        )}
        , narrowed by the choices below. This cannot be undone.
      </p>
      <OfflineNote action="delete worker results" />
      <CheckboxField
        label="Advanced mode: enter the UUIDs"
        checked={form.advanced}
        onChange={(advanced) => change({ advanced })}
      />
      {form.advanced ? (
        <AdvancedFields form={form} errors={errors} onChange={change} />
      ) : (
        <ChoiceFields corpusId={corpusId} form={form} errors={errors} onChange={change} />
      )}
      <ErrorList messages={serverErrors} />
    </Modal>
  );
}

type FieldsProps = {
  form: DeletionForm;
  errors: Partial<Record<DeletionField, string>>;
  onChange: (patch: Partial<DeletionForm>) => void;
};

function Field({
  label,
  error,
  children,
}: {
  label: string;
  error: string | undefined;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={ui.label}>
        {label}
      </label>
      {children(id, error ? `${id}-error` : undefined)}
      {error && (
        <p id={`${id}-error`} className={ui.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}

function UuidInput({
  label,
  value,
  error,
  onChange,
  placeholder = 'Any',
}: {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  /** What an empty field means; none where a value is required. */
  placeholder?: string;
}) {
  return (
    <Field label={label} error={error}>
      {(id, describedBy) => (
        <input
          id={id}
          type="text"
          value={value}
          maxLength={UUID_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          className={`${ui.input} font-mono`}
        />
      )}
    </Field>
  );
}

function ConfigurationRadios({
  value,
  onChange,
  one,
}: {
  value: ConfigurationChoice;
  onChange: (value: ConfigurationChoice) => void;
  /** What stands beside "This configuration": its select or its UUID field. */
  one: ReactNode;
}) {
  const name = useId();
  const option = (choice: ConfigurationChoice, label: string) => (
    <label className="flex items-center gap-2">
      <input
        type="radio"
        name={name}
        value={choice}
        checked={value === choice}
        onChange={() => onChange(choice)}
      />
      {label}
    </label>
  );
  return (
    <fieldset className="space-y-1">
      <legend className={ui.label}>Configuration</legend>
      {option('any', 'Any configuration')}
      {option('none', 'No configuration')}
      {option('one', 'This configuration')}
      {value === 'one' && <div className="pl-6">{one}</div>}
    </fieldset>
  );
}

function AdvancedFields({ form, errors, onChange }: FieldsProps) {
  return (
    <>
      <UuidInput
        label="Worker version ID"
        value={form.workerVersionId}
        error={errors.workerVersionId}
        onChange={(workerVersionId) => onChange({ workerVersionId })}
      />
      <UuidInput
        label="Model version ID"
        value={form.modelVersionId}
        error={errors.modelVersionId}
        onChange={(modelVersionId) => onChange({ modelVersionId })}
      />
      <ConfigurationRadios
        value={form.configuration}
        onChange={(configuration) => onChange({ configuration })}
        one={
          <UuidInput
            label="Configuration ID"
            value={form.configurationId}
            error={errors.configurationId}
            placeholder=""
            onChange={(configurationId) => onChange({ configurationId })}
          />
        }
      />
    </>
  );
}

function ChoiceFields({ corpusId, form, errors, onChange }: FieldsProps & { corpusId: string }) {
  const versions = useQuery(resultWorkerVersionsQuery(corpusId));
  const chosen = versions.data?.results.find((version) => version.id === form.workerVersionId);
  const workerId = chosen?.worker.id ?? null;
  const [modelId, setModelId] = useState('');
  // Models marked compatible with the chosen worker come first; a worker marked with none may
  // still have run with one, so then every model is offered.
  const compatibleModels = useQuery(modelChoicesQuery(workerId));
  const noneCompatible = !!workerId && compatibleModels.data?.count === 0;
  const allModels = useQuery({ ...modelChoicesQuery(null), enabled: noneCompatible });
  const models = noneCompatible ? allModels : compatibleModels;
  const modelVersions = useQuery({
    ...modelVersionChoicesQuery(modelId),
    enabled: !!modelId,
  });
  const configurations = useQuery({
    ...workerConfigurationsQuery(workerId ?? ''),
    enabled: !!workerId,
  });
  const listError = [versions.error, models.error, modelVersions.error, configurations.error].find(
    Boolean,
  );

  return (
    <>
      <Field label="Worker version" error={errors.workerVersionId}>
        {(id, describedBy) => (
          <select
            id={id}
            value={form.workerVersionId}
            aria-describedby={describedBy}
            onChange={(event) =>
              onChange({ workerVersionId: event.target.value, configurationId: '' })
            }
            className={ui.input}
          >
            <option value="">Any worker version</option>
            {/* A version typed in the advanced mode stays chosen even if not listed. */}
            {form.workerVersionId && !chosen && (
              <option value={form.workerVersionId}>{form.workerVersionId}</option>
            )}
            {versions.data?.results.map((version) => (
              <option key={version.id} value={version.id}>
                {workerVersionLabel(version)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Model" error={undefined}>
          {(id) => (
            <select
              id={id}
              value={modelId}
              onChange={(event) => {
                setModelId(event.target.value);
                onChange({ modelVersionId: '' });
              }}
              className={ui.input}
            >
              <option value="">Any model</option>
              {models.data?.results.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Model version" error={errors.modelVersionId}>
          {(id, describedBy) => (
            <select
              id={id}
              value={form.modelVersionId}
              disabled={!modelId && !form.modelVersionId}
              aria-describedby={describedBy}
              onChange={(event) => onChange({ modelVersionId: event.target.value })}
              className={ui.input}
            >
              <option value="">Any model version</option>
              {form.modelVersionId &&
                !modelVersions.data?.results.some((v) => v.id === form.modelVersionId) && (
                  <option value={form.modelVersionId}>{form.modelVersionId}</option>
                )}
              {modelVersions.data?.results.map((version) => (
                <option key={version.id} value={version.id}>
                  {version.tag ?? version.id.slice(0, 8)} ({version.state})
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ConfigurationRadios
        value={form.configuration}
        onChange={(configuration) => onChange({ configuration })}
        one={
          <Field label="Configuration of the worker" error={errors.configurationId}>
            {(id, describedBy) => (
              <select
                id={id}
                value={form.configurationId}
                aria-describedby={describedBy}
                aria-invalid={errors.configurationId ? true : undefined}
                onChange={(event) => onChange({ configurationId: event.target.value })}
                className={ui.input}
              >
                <option value="">
                  {workerId ? 'Choose a configuration' : 'Choose a worker version first'}
                </option>
                {form.configurationId &&
                  !configurations.data?.results.some((c) => c.id === form.configurationId) && (
                    <option value={form.configurationId}>{form.configurationId}</option>
                  )}
                {workerId &&
                  configurations.data?.results.map((configuration) => (
                    <option key={configuration.id} value={configuration.id}>
                      {configuration.name}
                      {configuration.archived ? ' (archived)' : ''}
                    </option>
                  ))}
              </select>
            )}
          </Field>
        }
      />
      {listError && (
        <p className={ui.fieldError}>
          What to choose from could not be listed: {errorMessage(listError)}. The advanced mode
          takes UUIDs instead.
        </p>
      )}
    </>
  );
}
