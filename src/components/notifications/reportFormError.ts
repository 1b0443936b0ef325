import { isValidationError, toFormErrors, type FormErrors } from '@/lib/formErrors';
import { notifyError } from './store';

/**
 * What a form shows of a failed request; a failure that is not a 400 also goes to a
 * notification (spec 001 §7 "What the product does with answers").
 */
export function reportFormError(
  error: unknown,
  fields: readonly string[],
  prefix: string,
): FormErrors {
  if (!isValidationError(error)) notifyError(error, prefix);
  return toFormErrors(error, fields, prefix);
}
