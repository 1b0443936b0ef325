import { useId } from 'react';
import { ui } from '@/components/styles';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What the server (or the form's own check) said of this field. */
  errors?: readonly string[];
  multiline?: boolean;
  maxLength?: number;
  autoFocus?: boolean;
  disabled?: boolean;
}

/** A labelled text input or text area with its errors under it, read out with the field. */
export function TextField({
  label,
  value,
  onChange,
  errors = [],
  multiline = false,
  maxLength,
  autoFocus,
  disabled,
}: TextFieldProps) {
  const id = useId();
  const errorsId = `${id}-errors`;
  const shared = {
    id,
    value,
    maxLength,
    autoFocus,
    disabled,
    'aria-invalid': errors.length > 0,
    'aria-describedby': errors.length ? errorsId : undefined,
    className: ui.input,
  };
  return (
    <div>
      <label htmlFor={id} className={ui.label}>
        {label}
      </label>
      {multiline ? (
        <textarea {...shared} rows={3} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          {...shared}
          type="text"
          autoComplete="off"
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <FieldErrors id={errorsId} messages={errors} />
    </div>
  );
}

export function FieldErrors({ id, messages }: { id?: string; messages: readonly string[] }) {
  if (!messages.length) return null;
  return (
    <div id={id}>
      {messages.map((message, index) => (
        <p key={index} className={ui.fieldError}>
          {message}
        </p>
      ))}
    </div>
  );
}
