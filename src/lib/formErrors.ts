/**
 * What a form shows of a failed request. A 400 names fields: those the form has go under them,
 * the rest above the buttons. Any other failure is one message with the form's prefix, which
 * also goes to a notification (spec 001 §7 "What the product does with answers").
 */
import { ApiError, errorMessage } from '@/api/errors';

export interface FormErrors {
  fields: Record<string, string[]>;
  general: string[];
}

export const NO_ERRORS: FormErrors = { fields: {}, general: [] };

export function isValidationError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400;
}

export function toFormErrors(
  error: unknown,
  fields: readonly string[],
  prefix: string,
): FormErrors {
  if (!isValidationError(error))
    return { fields: {}, general: [`${prefix}: ${errorMessage(error)}`] };
  const result: FormErrors = { fields: {}, general: [] };
  for (const [attr, messages] of Object.entries(error.fields)) {
    if (fields.includes(attr)) result.fields[attr] = messages;
    else result.general.push(...messages);
  }
  if (!Object.keys(result.fields).length && !result.general.length) {
    result.general.push(error.message);
  }
  return result;
}
