/**
 * A failed dataset save as the form shows it (spec 001 §8 Datasets): a 400 fills the errors of
 * name, description, set_names and unique_elements; any other failure is an error notice.
 */
import type { FormErrors } from '@/lib/formErrors';
import { reportFormError } from '@/components/notifications/reportFormError';
import { ApiError } from '@/api/errors';

export const DATASET_FIELDS = ['name', 'description', 'set_names', 'unique_elements'] as const;
export const DATASET_SAVE_ERROR = 'An error occurred while saving the dataset';

/** One set name's error (attr "set_names.2") belongs to the set names field as a whole. */
function withSetNamesGathered(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const fields: Record<string, string[]> = {};
  for (const [attr, messages] of Object.entries(error.fields)) {
    const key = attr.startsWith('set_names.') ? 'set_names' : attr;
    (fields[key] ??= []).push(...messages);
  }
  return new ApiError(
    error.status,
    error.message,
    fields,
    error.code,
    error.existingId,
    error.body,
  );
}

export function datasetFormErrors(error: unknown): FormErrors {
  return reportFormError(withSetNamesGathered(error), DATASET_FIELDS, DATASET_SAVE_ERROR);
}
