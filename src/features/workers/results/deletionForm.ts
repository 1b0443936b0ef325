/**
 * What the worker results deletion modal sends (spec 000 §5 "Worker result deletion"): the
 * results to delete are narrowed by worker version, model version and configuration (one, or
 * "no configuration"); the advanced mode takes those as typed UUIDs, checked before sending.
 */

/** UUID inputs hold 36 characters (spec 000 §9). */
export const UUID_MAX_LENGTH = 36;

export const INVALID_UUID = 'This value must be a valid UUID.';
export const VALUE_REQUIRED = 'This value must be set.';
export const WORKER_RESULTS_DELETION_SCHEDULED = 'Worker results deletion has been scheduled.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any configuration, only results made without one, or the results of one configuration. */
export type ConfigurationChoice = 'any' | 'none' | 'one';

export interface DeletionForm {
  advanced: boolean;
  /** Empty: any worker version. */
  workerVersionId: string;
  /** Empty: any model version. */
  modelVersionId: string;
  configuration: ConfigurationChoice;
  configurationId: string;
}

export type DeletionField = 'workerVersionId' | 'modelVersionId' | 'configurationId';

export const EMPTY_DELETION_FORM: DeletionForm = {
  advanced: false,
  workerVersionId: '',
  modelVersionId: '',
  configuration: 'any',
  configurationId: '',
};

/** The message each field shows, if any; the form is sent only when there is none. */
export function deletionFormErrors(form: DeletionForm): Partial<Record<DeletionField, string>> {
  const errors: Partial<Record<DeletionField, string>> = {};
  const check = (field: DeletionField, required: boolean) => {
    const value = form[field].trim();
    if (!value) {
      if (required) errors[field] = VALUE_REQUIRED;
    } else if (value.length > UUID_MAX_LENGTH || !UUID.test(value)) {
      errors[field] = INVALID_UUID;
    }
  };
  check('workerVersionId', false);
  check('modelVersionId', false);
  if (form.configuration === 'one') check('configurationId', true);
  return errors;
}

/** DELETE /corpus/{id}/worker-results/'s query: only the filters chosen. */
export function deletionParams(
  form: DeletionForm,
  elementId: string | null,
): Record<string, string> {
  const params: Record<string, string> = {};
  if (elementId) params.element_id = elementId;
  const workerVersion = form.workerVersionId.trim().toLowerCase();
  const modelVersion = form.modelVersionId.trim().toLowerCase();
  if (workerVersion) params.worker_version_id = workerVersion;
  if (modelVersion) params.model_version_id = modelVersion;
  if (form.configuration === 'none') params.configuration_id = 'false';
  if (form.configuration === 'one')
    params.configuration_id = form.configurationId.trim().toLowerCase();
  return params;
}
