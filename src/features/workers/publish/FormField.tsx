/** One labelled control of the publishing modals, with the server's message for it beneath. */
import { useId, type ReactNode } from 'react';
import { ui } from '@/components/styles';

export function FormField({
  label,
  required = false,
  errors,
  help,
  children,
}: {
  label: string;
  required?: boolean;
  errors?: readonly string[];
  help?: ReactNode;
  /** The control, given the ids that tie it to its label and messages. */
  children: (props: {
    id: string;
    'aria-invalid'?: true;
    'aria-describedby'?: string;
  }) => ReactNode;
}) {
  const id = useId();
  const described = [help ? `${id}-help` : null, errors?.length ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div>
      <label htmlFor={id} className={ui.label}>
        {label}
        {required && (
          <>
            {' '}
            <span aria-hidden="true" className="text-red-600">
              *
            </span>
          </>
        )}
      </label>
      {children({
        id,
        'aria-invalid': errors?.length ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {help && (
        <p id={`${id}-help`} className={ui.help}>
          {help}
        </p>
      )}
      {!!errors?.length && (
        <p id={`${id}-error`} className={ui.fieldError}>
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}
