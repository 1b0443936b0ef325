/**
 * The worker's settings, read from its worker run (RetrieveWorkerRun): the version's
 * configuration, under the defaults of its `user_configuration` schema, under the model
 * version's configuration, under the run's configuration, each later one winning. Values a
 * hand-edited configuration may get wrong are checked here, so a bad one fails the task with a
 * clear line instead of a Tesseract error.
 */

export const PSM_CHOICES = [1, 3, 4, 6, 11] as const;

export interface Settings {
  languages: string;
  psm: number;
  /** 0–100: lines whose words' mean confidence is below it are not stored. */
  minConfidence: number;
  /** False: transcribe the element's existing lines instead of finding new ones. */
  createLines: boolean;
  lineType: string;
  createRegions: boolean;
}

export interface WorkerRunJson {
  id: string;
  worker_version: {
    configuration: Record<string, unknown> | null;
  };
  model_version: {
    id: string;
    model: { id: string; name: string };
    configuration: Record<string, unknown> | null;
  } | null;
  configuration: { configuration: Record<string, unknown> | null } | null;
  process: { id: string; corpus: string | null };
}

export class SettingsError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function schemaDefaults(schema: unknown): Record<string, unknown> {
  if (!isObject(schema)) return {};
  const defaults: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema)) {
    if (isObject(field) && field.default !== undefined && field.default !== null) {
      defaults[key] = field.default;
    }
  }
  return defaults;
}

/** The merged configuration, as the contract orders its layers. */
export function mergedConfiguration(run: WorkerRunJson): Record<string, unknown> {
  const version = isObject(run.worker_version.configuration)
    ? run.worker_version.configuration
    : {};
  const { user_configuration: schema, ...versionValues } = version;
  return {
    ...versionValues,
    ...schemaDefaults(schema),
    ...(isObject(run.model_version?.configuration) ? run.model_version.configuration : {}),
    ...(isObject(run.configuration?.configuration) ? run.configuration.configuration : {}),
  };
}

function flag(value: unknown, key: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new SettingsError(`${key} must be true or false`);
  return value;
}

export function readSettings(configuration: Record<string, unknown>): Settings {
  const languages = configuration.languages ?? 'frk';
  if (typeof languages !== 'string' || !/^[A-Za-z0-9_-]+(\+[A-Za-z0-9_-]+)*$/.test(languages)) {
    throw new SettingsError(
      `languages must name Tesseract languages joined by "+" (like "deu+frk"), not ${JSON.stringify(languages)}`,
    );
  }
  const psm = Number(configuration.psm ?? 3);
  if (!(PSM_CHOICES as readonly number[]).includes(psm)) {
    throw new SettingsError(`psm must be one of ${PSM_CHOICES.join(', ')}`);
  }
  const minConfidence = Number(configuration.min_confidence ?? 0);
  if (!Number.isFinite(minConfidence) || minConfidence < 0 || minConfidence > 100) {
    throw new SettingsError('min_confidence must be a number from 0 to 100');
  }
  const lineType = configuration.line_type ?? 'text_line';
  if (typeof lineType !== 'string' || lineType.trim() === '') {
    throw new SettingsError('line_type must be the slug of an element type');
  }
  return {
    languages,
    psm,
    minConfidence,
    createLines: flag(configuration.create_lines, 'create_lines', true),
    lineType: lineType.trim(),
    createRegions: flag(configuration.create_regions, 'create_regions', false),
  };
}
