import { useId } from 'react';
import type { ElementType } from '@/api/types';
import { ELEMENT_NAME_MAX, type ElementFields } from '@/lib/elementForm';
import { ui } from '@/components/styles';

export interface NameTypeFieldsProps {
  value: ElementFields;
  onChange: (value: ElementFields) => void;
  /** The types offered, in the project's order. */
  types: readonly ElementType[];
  /** Per field: the form's own check first, else what the server said. */
  errors: Partial<Record<keyof ElementFields, readonly string[]>>;
  disabled?: boolean;
}

/** The name and type fields the element forms share. */
export function NameTypeFields({ value, onChange, types, errors, disabled }: NameTypeFieldsProps) {
  const nameId = useId();
  const typeId = useId();
  const nameErrors = errors.name ?? [];
  const typeErrors = errors.type ?? [];
  return (
    <>
      <div>
        <label htmlFor={nameId} className={ui.label}>
          Name
        </label>
        <input
          id={nameId}
          type="text"
          autoFocus
          autoComplete="off"
          maxLength={ELEMENT_NAME_MAX}
          value={value.name}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, name: event.target.value })}
          aria-invalid={nameErrors.length > 0}
          aria-describedby={nameErrors.length ? `${nameId}-errors` : undefined}
          className={ui.input}
        />
        <FieldErrors id={`${nameId}-errors`} messages={nameErrors} />
      </div>
      <div>
        <label htmlFor={typeId} className={ui.label}>
          Type
        </label>
        <select
          id={typeId}
          value={value.type}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, type: event.target.value })}
          aria-invalid={typeErrors.length > 0}
          aria-describedby={typeErrors.length ? `${typeId}-errors` : undefined}
          className={ui.input}
        >
          <option value="">Choose a type</option>
          {types.map((type) => (
            <option key={type.slug} value={type.slug}>
              {type.display_name}
            </option>
          ))}
        </select>
        <FieldErrors id={`${typeId}-errors`} messages={typeErrors} />
      </div>
    </>
  );
}

function FieldErrors({ id, messages }: { id: string; messages: readonly string[] }) {
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
