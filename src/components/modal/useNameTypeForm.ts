import { useState } from 'react';
import {
  fieldMessages,
  hasErrors,
  validateElementFields,
  type ElementFields,
} from '@/lib/elementForm';
import { NO_ERRORS, type FormErrors } from '@/lib/formErrors';
import { reportFormError } from '@/components/notifications/reportFormError';

const FIELDS: readonly (keyof ElementFields)[] = ['name', 'type'];

export type NameTypeForm = ReturnType<typeof useNameTypeForm>;

/** The state of a name and type form: its fields, its own checks and the server's last word. */
export function useNameTypeForm(initial: ElementFields) {
  const [fields, setFields] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>(NO_ERRORS);
  const local = validateElementFields(fields);
  return {
    fields,
    change: (next: ElementFields) => {
      setFields(next);
      // What the server said was about the values just changed.
      setServerErrors(NO_ERRORS);
    },
    fieldErrors: fieldMessages(local, submitted, serverErrors.fields),
    generalErrors: serverErrors.general,
    /** Shows the form's own checks from now on; true when they pass. */
    check: (): boolean => {
      setSubmitted(true);
      return !hasErrors(local);
    },
    fail: (error: unknown, prefix: string) =>
      setServerErrors(reportFormError(error, FIELDS, prefix)),
  };
}
