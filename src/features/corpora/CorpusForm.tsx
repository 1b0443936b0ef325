import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage, fieldErrors } from '@/api/errors';
import type { ElementType } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { OfflineNote, useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';

/** The most a project name may hold, as the server stores it. */
export const NAME_MAX_LENGTH = 100;

export interface CorpusFormValues {
  name: string;
  description: string;
  public: boolean;
  indexable: boolean;
  top_level_type: string | null;
}

const FIELDS = ['name', 'description', 'public', 'indexable', 'top_level_type'] as const;

interface CorpusFormProps {
  initial: CorpusFormValues;
  /** Given on the edit page only: a new project has no types to show at top level yet. */
  types?: ElementType[];
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The last failed submission's error, shown next to the fields it names. */
  error: unknown;
  onSubmit: (values: CorpusFormValues) => void;
  actions?: ReactNode;
  /** Said above the button while offline ("create the project"); none where the page says it. */
  offlineAction?: string;
}

export function CorpusForm({
  initial,
  types,
  submitLabel,
  pendingLabel,
  pending,
  error,
  onSubmit,
  actions,
  offlineAction,
}: CorpusFormProps) {
  const [values, setValues] = useState(initial);
  const id = useId();
  // Projects are written on the server only: offline, the form waits instead of failing.
  const offline = useNeedsNetwork();
  const errors = fieldErrors(error);
  const otherErrors = Object.entries(errors)
    .filter(([attr]) => !(FIELDS as readonly string[]).includes(attr))
    .flatMap(([, messages]) => messages);
  const hasFieldErrors = Object.keys(errors).length > 0;
  const formError = error
    ? otherErrors.length
      ? otherErrors.join(' - ')
      : hasFieldErrors
        ? null
        : errorMessage(error)
    : null;

  const name = values.name.trim();
  const canSubmit = name.length > 0 && name.length <= NAME_MAX_LENGTH && !pending;

  const set = <K extends keyof CorpusFormValues>(key: K, value: CorpusFormValues[K]) =>
    setValues((previous) => ({ ...previous, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit || offline) return;
    onSubmit({ ...values, name });
  };

  const describedBy = (field: string, help?: boolean) =>
    [help && `${id}-${field}-help`, errors[field] && `${id}-${field}-error`]
      .filter(Boolean)
      .join(' ') || undefined;

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {formError && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {formError}
        </p>
      )}

      <div>
        <label htmlFor={`${id}-name`} className={ui.label}>
          Name{' '}
          <span aria-hidden="true" className="text-red-600">
            *
          </span>
        </label>
        <input
          id={`${id}-name`}
          type="text"
          required
          maxLength={NAME_MAX_LENGTH}
          value={values.name}
          onChange={(event) => set('name', event.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describedBy('name')}
          className={ui.input}
          autoComplete="off"
        />
        <FieldError id={`${id}-name-error`} messages={errors.name} />
      </div>

      <div>
        <label htmlFor={`${id}-description`} className={ui.label}>
          Description
        </label>
        <textarea
          id={`${id}-description`}
          rows={5}
          value={values.description}
          onChange={(event) => set('description', event.target.value)}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={describedBy('description', true)}
          className={ui.input}
        />
        <p id={`${id}-description-help`} className={ui.help}>
          Markdown is supported.
        </p>
        <FieldError id={`${id}-description-error`} messages={errors.description} />
      </div>

      {types && (
        <div>
          <label htmlFor={`${id}-top-level`} className={ui.label}>
            Top-level type
          </label>
          <select
            id={`${id}-top-level`}
            value={values.top_level_type ?? ''}
            onChange={(event) => set('top_level_type', event.target.value || null)}
            aria-invalid={errors.top_level_type ? true : undefined}
            aria-describedby={describedBy('top_level_type', true)}
            className={ui.input}
          >
            <option value="">None</option>
            {types.map((type) => (
              <option key={type.id} value={type.slug}>
                {type.display_name}
              </option>
            ))}
          </select>
          <p id={`${id}-top_level_type-help`} className={ui.help}>
            The type of the elements listed first when browsing the project.
          </p>
          <FieldError id={`${id}-top_level_type-error`} messages={errors.top_level_type} />
        </div>
      )}

      <Checkbox
        id={`${id}-public`}
        label="Public"
        help="Anyone, even without an account, can read a public project."
        checked={values.public}
        onChange={(checked) => set('public', checked)}
        errors={errors.public}
      />

      {types && (
        <Checkbox
          id={`${id}-indexable`}
          label="Indexable"
          help="The project's content can be searched once it is indexed."
          checked={values.indexable}
          onChange={(checked) => set('indexable', checked)}
          errors={errors.indexable}
        />
      )}

      {offlineAction && <OfflineNote action={offlineAction} />}
      <div className="flex flex-wrap items-center gap-2 pt-2">
        <GuardedButton
          type="submit"
          blocked={offline}
          className={ui.primaryButton}
          disabled={!canSubmit}
        >
          {pending ? pendingLabel : submitLabel}
        </GuardedButton>
        {actions}
      </div>
    </form>
  );
}

function Checkbox({
  id,
  label,
  help,
  checked,
  onChange,
  errors,
}: {
  id: string;
  label: string;
  help: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  errors: string[] | undefined;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={[`${id}-help`, errors && `${id}-error`].filter(Boolean).join(' ')}
        aria-invalid={errors ? true : undefined}
        className={`${ui.checkbox} mt-0.5`}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {label}
        </label>
        <p id={`${id}-help`} className="text-sm text-slate-500">
          {help}
        </p>
        <FieldError id={`${id}-error`} messages={errors} />
      </div>
    </div>
  );
}

function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className={ui.fieldError}>
      {messages.join(' ')}
    </p>
  );
}
