/**
 * The worker configuration editor (spec 000 §3, §5): a form built from the version's
 * user_configuration, or raw JSON, checked with the rules the API applies, in their words.
 * It creates a configuration, clones one ('Copy of …'), or shows one read-only with its
 * Clone and Archive / Unarchive buttons.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  createWorkerConfiguration,
  updateWorkerConfiguration,
  workerKeys,
  type Worker,
  type WorkerConfiguration,
  type WorkerVersion,
} from '@/api/workers';
import { ApiError, errorMessage } from '@/api/errors';
import type { ElementType } from '@/api/types';
import { currentUserQuery } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { Modal } from '@/components/modal/Modal';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { canArchive } from '@/lib/rights';
import {
  CONFIGURATION_MESSAGES,
  defaultConfiguration,
  normalizeConfiguration,
  sameAsDefault,
  validateConfiguration,
  withDefaults,
  type UserConfiguration,
} from '@/lib/workerConfiguration';
import { ConfigurationFields } from './ConfigurationFields';
import {
  configurationKey,
  emptyRequiredFields,
  fromFormState,
  parseJsonConfiguration,
  setFieldState,
  toFormState,
  type GroupState,
} from './formState';
import { CloseAction } from '@/components/modal/ModalActions';

/** Spec 000 §9: the default clone name prefix. */
export const CLONE_PREFIX = 'Copy of';
export const CLONE_MISMATCH_WARNING =
  "The cloned configuration does not match this worker version's fields: the default values are used instead.";

export type EditorStart =
  | { mode: 'new' }
  | { mode: 'clone'; from: WorkerConfiguration }
  | { mode: 'view'; configuration: WorkerConfiguration };

interface Conflict {
  detail: string;
  existingId: string;
}

interface Initial {
  name: string;
  state: GroupState;
  json: string;
  warning: string | null;
}

function initialOf(start: EditorStart, schema: UserConfiguration | null): Initial {
  const defaults = schema ? defaultConfiguration(schema) : {};
  const json = (values: Record<string, unknown>) => JSON.stringify(values, null, 2);
  if (start.mode === 'new') {
    return {
      name: '',
      state: toFormState(schema ?? {}, defaults),
      json: json(defaults),
      warning: null,
    };
  }
  // Fields a configuration leaves out show the default that stands in for them.
  const filled = (values: Record<string, unknown>) =>
    schema ? withDefaults(schema, values) : values;
  if (start.mode === 'view') {
    const values = filled(start.configuration.configuration);
    return {
      name: start.configuration.name,
      state: toFormState(schema ?? {}, values),
      json: json(values),
      warning: null,
    };
  }
  const values = start.from.configuration;
  const name = `${CLONE_PREFIX} ${start.from.name}`;
  // Spec 000 §5: a clone that no longer matches the schema starts from the defaults, and says so.
  if (schema && validateConfiguration(schema, values).length > 0) {
    return {
      name,
      state: toFormState(schema, defaults),
      json: json(defaults),
      warning: CLONE_MISMATCH_WARNING,
    };
  }
  return {
    name,
    state: toFormState(schema ?? {}, filled(values)),
    json: json(values),
    warning: null,
  };
}

export function ConfigurationEditor({
  worker,
  version,
  start,
  elementTypes,
  onClose,
  onOpen,
  onClone,
}: {
  worker: Worker;
  /** The version whose schema drives the form; null when the worker has none. */
  version: WorkerVersion | null;
  start: EditorStart;
  elementTypes: ElementType[] | null;
  onClose: () => void;
  /** Shows a configuration read-only (the one just created). */
  onOpen: (configuration: WorkerConfiguration) => void;
  onClone: (configuration: WorkerConfiguration) => void;
}) {
  const schema = version?.configuration?.user_configuration ?? null;
  const [initial] = useState(() => initialOf(start, schema));
  const [name, setName] = useState(initial.name);
  const [state, setState] = useState<GroupState>(initial.state);
  // Without a schema there is no form to build: the configuration is written as JSON.
  const [jsonMode, setJsonMode] = useState(!schema);
  const [jsonText, setJsonText] = useState(initial.json);
  const [nameError, setNameError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const { data: user = null } = useQuery(currentUserQuery);
  const offline = useNeedsNetwork();
  const queryClient = useQueryClient();
  const viewing = start.mode === 'view' ? start.configuration : null;

  const refreshLists = () =>
    queryClient.invalidateQueries({ queryKey: workerKeys.configurationLists(worker.id) });

  const create = useMutation({
    mutationFn: (configuration: Record<string, unknown>) =>
      createWorkerConfiguration(worker.id, {
        name: name.trim(),
        configuration,
        ...(version ? { worker_version_id: version.id } : {}),
      }),
    onSuccess: (created) => {
      void refreshLists();
      queryClient.setQueryData(workerKeys.configuration(created.id), created);
      notify({ type: 'success', text: `Configuration ${created.name} created.` });
      onOpen(created);
    },
    onError: (error) => showServerError(error),
  });

  const archive = useMutation({
    mutationFn: (configuration: WorkerConfiguration) =>
      updateWorkerConfiguration(configuration.id, { archived: !configuration.archived }),
    onSuccess: (updated) => {
      void refreshLists();
      queryClient.setQueryData(workerKeys.configuration(updated.id), updated);
      notify({
        type: 'success',
        text: `Configuration ${updated.name} ${updated.archived ? 'archived' : 'unarchived'}.`,
      });
      onOpen(updated);
    },
    onError: (error) => notifyError(error),
  });

  function existingHref(existingId: string): string {
    return `/process/workers/${worker.id}?configuration=${existingId}`;
  }

  function showServerError(error: unknown) {
    if (error instanceof ApiError && error.status === 409 && error.existingId) {
      // Spec 000 §8: the first error detail, with a link to the configuration that has the name.
      const first = (error.body as { errors?: { detail?: string }[] } | null)?.errors?.[0]?.detail;
      const detail = first ?? error.message;
      setConflict({ detail, existingId: error.existingId });
      notify({
        type: 'error',
        text: detail,
        link: { url: existingHref(error.existingId), text: 'See the existing configuration' },
      });
      return;
    }
    if (error instanceof ApiError && error.status === 400) {
      const fields: Record<string, string> = {};
      const rest: string[] = [];
      for (const [attr, messages] of Object.entries(error.fields)) {
        const key = configurationKey(attr);
        if (attr === 'name') setNameError(messages[0] ?? null);
        else if (key) fields[key] = messages[0] ?? '';
        else rest.push(...messages);
      }
      setFieldErrors(fields);
      // In JSON mode there are no inputs to show a field's message under.
      setFormErrors(jsonMode ? [...rest, ...listed(fields)] : rest);
      if (!Object.keys(error.fields).length) setFormErrors([error.message]);
      return;
    }
    notifyError(error);
    setFormErrors([errorMessage(error)]);
  }

  function listed(fields: Record<string, string>): string[] {
    return Object.entries(fields).map(([key, message]) => (key ? `${key}: ${message}` : message));
  }

  /** The configuration the form or the JSON describes, or null when the JSON is no object. */
  function currentValues(): Record<string, unknown> | null {
    return jsonMode ? parseJsonConfiguration(jsonText) : fromFormState(schema ?? {}, state);
  }

  function submit() {
    setConflict(null);
    const nameProblem = name.trim() ? null : CONFIGURATION_MESSAGES.nameRequired;
    const values = currentValues();
    const fields: Record<string, string> = {};
    const general: string[] = [];
    if (values === null || Object.keys(values).length === 0) {
      general.push(CONFIGURATION_MESSAGES.invalidJson);
    } else if (schema) {
      for (const problem of validateConfiguration(schema, values)) {
        if (problem.key) fields[problem.key] ??= problem.message;
        else general.push(problem.message);
      }
      if (!jsonMode) {
        for (const key of emptyRequiredFields(schema, state)) {
          fields[key] ??= CONFIGURATION_MESSAGES.required;
        }
      }
      if (!general.length && !Object.keys(fields).length && sameAsDefault(schema, values)) {
        general.push(CONFIGURATION_MESSAGES.isDefault);
      }
    }
    setNameError(nameProblem);
    setFieldErrors(fields);
    setFormErrors(jsonMode ? [...general, ...listed(fields)] : general);
    if (nameProblem || general.length || Object.keys(fields).length || !values) return;
    create.mutate(schema ? normalizeConfiguration(schema, values) : values);
  }

  function toggleJson() {
    if (!jsonMode) {
      setJsonText(JSON.stringify(fromFormState(schema ?? {}, state), null, 2));
      setFormErrors([]);
      setJsonMode(true);
      return;
    }
    const parsed = parseJsonConfiguration(jsonText);
    if (!parsed) {
      setFormErrors([CONFIGURATION_MESSAGES.invalidJson]);
      return;
    }
    setState(toFormState(schema ?? {}, parsed));
    setFormErrors([]);
    setJsonMode(false);
  }

  const disabled = !!viewing;
  const title = viewing
    ? `Configuration ${viewing.name}`
    : start.mode === 'clone'
      ? 'Clone a configuration'
      : 'New configuration';

  const footer = viewing ? (
    <>
      <button type="button" className={ui.secondaryButton} onClick={() => onClone(viewing)}>
        Clone
      </button>
      {canArchive(user) && (
        <GuardedButton
          blocked={offline}
          className={viewing.archived ? ui.secondaryButton : ui.dangerOutlineButton}
          disabled={archive.isPending}
          onClick={() => archive.mutate(viewing)}
        >
          {viewing.archived ? 'Unarchive' : 'Archive'}
        </GuardedButton>
      )}
      <CloseAction onClose={onClose} />
    </>
  ) : (
    <>
      <button type="button" className={ui.secondaryButton} onClick={onClose}>
        Cancel
      </button>
      <GuardedButton
        type="submit"
        blocked={offline}
        className={ui.primaryButton}
        disabled={create.isPending}
      >
        {create.isPending ? 'Saving…' : 'Save'}
      </GuardedButton>
    </>
  );

  return (
    <Modal
      title={title}
      size="lg"
      onClose={onClose}
      pending={create.isPending}
      onSubmit={viewing ? undefined : submit}
      footer={footer}
      footerStart={
        schema ? (
          <button type="button" className={ui.secondaryButton} onClick={toggleJson}>
            {jsonMode ? 'Edit as a form' : 'Edit as JSON'}
          </button>
        ) : undefined
      }
    >
      {viewing?.archived && (
        <p className="rounded-md bg-slate-100 px-3 py-2 text-slate-700">
          This configuration is archived: it cannot be chosen in a process.
        </p>
      )}
      {initial.warning && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900"
        >
          {initial.warning}
        </p>
      )}
      <div>
        <label htmlFor="configuration-name" className={ui.label}>
          Name
          {!disabled && <span className="text-red-700"> *</span>}
        </label>
        <input
          id="configuration-name"
          type="text"
          className={ui.input}
          value={name}
          disabled={disabled}
          aria-required={!disabled || undefined}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? 'configuration-name-error' : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        {nameError && (
          <p id="configuration-name-error" className={ui.fieldError}>
            {nameError}
          </p>
        )}
      </div>
      {version && (
        <p className="text-slate-500">
          Fields of{' '}
          <Link
            to="/process/worker-version/$versionId"
            params={{ versionId: version.id }}
            className={ui.link}
          >
            {versionLabel(version)}
          </Link>
        </p>
      )}
      {jsonMode ? (
        <div>
          <label htmlFor="configuration-json" className={ui.label}>
            JSON configuration
          </label>
          <textarea
            id="configuration-json"
            rows={12}
            spellCheck={false}
            className={`${ui.input} font-mono text-xs`}
            value={jsonText}
            disabled={disabled}
            onChange={(event) => setJsonText(event.target.value)}
          />
        </div>
      ) : (
        <ConfigurationFields
          schema={schema ?? {}}
          state={state}
          context={{
            errors: fieldErrors,
            disabled,
            elementTypes,
            onChange: (path, value) => {
              setState((current) => setFieldState(current, path, value));
              // A field's message no longer holds once the user changes what it was about.
              const key = path.join('.');
              setFieldErrors((current) => {
                if (!(key in current)) return current;
                const { [key]: _gone, ...rest } = current;
                return rest;
              });
            },
          }}
        />
      )}
      {formErrors.length > 0 && (
        <ul role="alert" className="flex flex-col gap-1 text-sm text-red-700">
          {formErrors.map((message, index) => (
            <li key={index}>{message}</li>
          ))}
        </ul>
      )}
      {conflict && (
        <p role="alert" className="text-sm text-red-700">
          {conflict.detail}{' '}
          <Link
            to="/process/workers/$workerId"
            params={{ workerId: worker.id }}
            search={{ configuration: conflict.existingId }}
            className={ui.link}
          >
            See the existing configuration
          </Link>
        </p>
      )}
      {!viewing && <OfflineNote action="save a configuration" />}
    </Modal>
  );
}

/** A version as its list names it: its number, else its tag, else its revision. */
export function versionLabel(version: WorkerVersion): string {
  if (version.version !== null) return `Version ${version.version}`;
  if (version.tag) return version.tag;
  if (version.revision_url) return version.revision_url.split('/').pop() ?? version.revision_url;
  return version.id.slice(0, 8);
}
