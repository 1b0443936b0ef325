import { useId } from 'react';
import { ui } from '@/components/styles';
import { MODEL_NAME_MAX_LENGTH } from './modelText';

// Read-only fields look it, so a guest does not take them for a form that failed to save.
const input = `${ui.input} disabled:bg-slate-50 disabled:text-slate-600`;

export interface ModelFieldValues {
  name: string;
  description: string;
}

/** A model's name and description, as the create modal and the model page edit them. */
export function ModelFields({
  values,
  onChange,
  errors = {},
  disabled = false,
}: {
  values: ModelFieldValues;
  onChange: (values: ModelFieldValues) => void;
  /** Messages per field from the server's last answer. */
  errors?: Record<string, string[]>;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <>
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
          maxLength={MODEL_NAME_MAX_LENGTH}
          value={values.name}
          disabled={disabled}
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${id}-name-error` : undefined}
          onChange={(event) => onChange({ ...values, name: event.target.value })}
          className={input}
        />
        {errors.name && (
          <p id={`${id}-name-error`} className={ui.fieldError}>
            {errors.name.join(' ')}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-description`} className={ui.label}>
          Description
        </label>
        <textarea
          id={`${id}-description`}
          rows={4}
          value={values.description}
          disabled={disabled}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${id}-description-error` : undefined}
          onChange={(event) => onChange({ ...values, description: event.target.value })}
          className={input}
        />
        {errors.description && (
          <p id={`${id}-description-error`} className={ui.fieldError}>
            {errors.description.join(' ')}
          </p>
        )}
      </div>
    </>
  );
}
