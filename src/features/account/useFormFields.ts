import { useState } from 'react';
import type { FieldErrors } from './validation';

/**
 * A form's values and its errors by field. Typing in a field clears that field's error, so a
 * message never stays under text it was not about.
 */
export function useFormFields<
  Values extends { [K in keyof Values]: string },
  OtherErrors extends string = never,
>(initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors<(keyof Values & string) | OtherErrors>>({});

  function change(field: keyof Values & string, value: string) {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  }

  return { values, setValues, errors, setErrors, change };
}
