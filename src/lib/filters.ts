/**
 * The element filters of the filter bar and their validation (spec 001 §5 "Filters"), as pure
 * functions: what a user typed goes in, the value to send or the spec's message comes out.
 */
import type { ElementType, MlClassRef } from '@/api/types';

/** Every filter of the filter bar, in the spec's order. */
export const FILTER_NAMES = [
  'name',
  'rotation_angle',
  'mirrored',
  'worker_version',
  'metadata_name',
  'metadata_value',
  'confidence',
  'transcription_confidence',
  'transcription_worker_version',
  'creator_email',
  'worker_run',
  'transcription_worker_run',
  'type',
  'folder',
  'class_id',
  'classification_confidence',
  'classification_high_confidence',
  'recursive',
  'top_level',
] as const;

export type FilterName = (typeof FILTER_NAMES)[number];

/** Filter values by name; a name appears at most once (filters are unique per name). */
export type Filters = Partial<Record<FilterName, string>>;

export const BOOLEAN_FILTERS: readonly FilterName[] = [
  'mirrored',
  'folder',
  'recursive',
  'top_level',
  'classification_high_confidence',
];

export const CONFIDENCE_FILTERS: readonly FilterName[] = [
  'confidence',
  'transcription_confidence',
  'classification_confidence',
];

export const WORKER_RUN_FILTERS: readonly FilterName[] = ['worker_run', 'transcription_worker_run'];

export const WORKER_VERSION_FILTERS: readonly FilterName[] = [
  'worker_version',
  'transcription_worker_version',
];

/** How metadata_value compares, sent as metadata_operator. */
export const METADATA_OPERATORS = ['eq', 'lt', 'lte', 'gt', 'gte', 'contains'] as const;
export type MetadataOperator = (typeof METADATA_OPERATORS)[number];
export const DEFAULT_METADATA_OPERATOR: MetadataOperator = 'eq';

const NUMERIC_OPERATORS: readonly MetadataOperator[] = ['lt', 'lte', 'gt', 'gte'];

export const METADATA_OPERATOR_LABELS: Record<MetadataOperator, string> = {
  eq: 'equals',
  lt: 'less than',
  lte: 'less than or equal to',
  gt: 'greater than',
  gte: 'greater than or equal to',
  contains: 'contains',
};

/** Names a person reads in the filter bar and in listing errors. */
export const FILTER_LABELS: Record<FilterName, string> = {
  name: 'Name',
  rotation_angle: 'Rotation angle',
  mirrored: 'Mirrored',
  worker_version: 'Worker version',
  metadata_name: 'Metadata name',
  metadata_value: 'Metadata value',
  confidence: 'Confidence',
  transcription_confidence: 'Transcription confidence',
  transcription_worker_version: 'Transcription worker version',
  creator_email: 'Creator e-mail',
  worker_run: 'Worker run',
  transcription_worker_run: 'Transcription worker run',
  type: 'Type',
  folder: 'Folder',
  class_id: 'Class',
  classification_confidence: 'Classification confidence',
  classification_high_confidence: 'High confidence classification',
  recursive: 'Recursive',
  top_level: 'Top level',
};

/** The spec's messages, word for word. */
export const FILTER_MESSAGES = {
  confidence: 'A confidence must be a number between 0.0 and 1.0',
  rotation: 'A rotation angle must be a number between 0 and 359 degrees',
  boolean: 'Only Yes and No are allowed',
  uuid: 'Invalid UUID',
  numericMetadata: 'Numeric comparison operators on metadata values require finite numbers',
  type: (value: string) => `Type '${value}' not found.`,
  mlClass: (value: string) => `Unknown class '${value}'`,
  workerVersion: (value: string) => `Unknown worker version ID: '${value}'`,
  // Not in the spec: the API's own wording for an empty text value.
  blank: 'This field may not be blank.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function isFilterName(value: unknown): value is FilterName {
  return typeof value === 'string' && (FILTER_NAMES as readonly string[]).includes(value);
}

export function isMetadataOperator(value: unknown): value is MetadataOperator {
  return typeof value === 'string' && (METADATA_OPERATORS as readonly string[]).includes(value);
}

export function isNumericOperator(operator: MetadataOperator): boolean {
  return NUMERIC_OPERATORS.includes(operator);
}

/** true / false / yes / no in any case, else null. */
export function parseBoolean(value: string): boolean | null {
  const word = value.trim().toLowerCase();
  if (word === 'true' || word === 'yes') return true;
  if (word === 'false' || word === 'no') return false;
  return null;
}

/** What the validators need to know about the project. */
export interface FilterContext {
  types: readonly ElementType[];
  /** The project's ML classes; null when the server cannot list them. */
  classes?: readonly MlClassRef[] | null;
  /** Known worker version ids; null or absent when there is no list to check against. */
  workerVersions?: readonly string[] | null;
  /** The comparison sent with metadata_value. */
  metadataOperator?: MetadataOperator;
}

export type FilterResult = { ok: true; value: string } | { ok: false; message: string };

const ok = (value: string): FilterResult => ({ ok: true, value });
const fail = (message: string): FilterResult => ({ ok: false, message });

/** A number in [min, max] written in plain decimal notation, else null. */
function decimalIn(text: string, min: number, max: number): number | null {
  if (!DECIMAL.test(text)) return null;
  const number = Number(text);
  return number >= min && number <= max ? number : null;
}

/** Validates one filter value as typed; on success gives the value the API expects. */
export function validateFilter(
  name: FilterName,
  input: string,
  context: FilterContext,
): FilterResult {
  const value = input.trim();

  if (BOOLEAN_FILTERS.includes(name)) {
    const parsed = parseBoolean(value);
    return parsed === null ? fail(FILTER_MESSAGES.boolean) : ok(String(parsed));
  }

  if (CONFIDENCE_FILTERS.includes(name)) {
    const number = decimalIn(value, 0, 1);
    return number === null ? fail(FILTER_MESSAGES.confidence) : ok(String(number));
  }

  if (WORKER_RUN_FILTERS.includes(name)) {
    if (value.toLowerCase() === 'false') return ok('false');
    return UUID.test(value) ? ok(value.toLowerCase()) : fail(FILTER_MESSAGES.uuid);
  }

  if (WORKER_VERSION_FILTERS.includes(name)) {
    if (value.toLowerCase() === 'false') return ok('false');
    const id = value.toLowerCase();
    const known = context.workerVersions;
    if (!UUID.test(value) || (known && !known.some((version) => version.toLowerCase() === id))) {
      return fail(FILTER_MESSAGES.workerVersion(value));
    }
    return ok(id);
  }

  switch (name) {
    case 'rotation_angle': {
      if (!/^\d+$/.test(value)) return fail(FILTER_MESSAGES.rotation);
      const angle = Number(value);
      return angle <= 359 ? ok(String(angle)) : fail(FILTER_MESSAGES.rotation);
    }
    case 'type': {
      const wanted = value.toLowerCase();
      const type =
        context.types.find((t) => t.slug === value) ??
        context.types.find(
          (t) => t.slug.toLowerCase() === wanted || t.display_name.toLowerCase() === wanted,
        );
      return type ? ok(type.slug) : fail(FILTER_MESSAGES.type(value));
    }
    case 'class_id': {
      const classes = context.classes;
      // Without a class list to check against, only an id can be sent as it is.
      if (!classes)
        return UUID.test(value) ? ok(value.toLowerCase()) : fail(FILTER_MESSAGES.mlClass(value));
      const wanted = value.toLowerCase();
      const found =
        classes.find((c) => c.id.toLowerCase() === wanted) ??
        classes.find((c) => c.name.toLowerCase() === wanted);
      return found ? ok(found.id) : fail(FILTER_MESSAGES.mlClass(value));
    }
    case 'metadata_value': {
      const operator = context.metadataOperator ?? DEFAULT_METADATA_OPERATOR;
      if (isNumericOperator(operator)) {
        const number = value === '' ? NaN : Number(value);
        return Number.isFinite(number) ? ok(value) : fail(FILTER_MESSAGES.numericMetadata);
      }
      return value === '' ? fail(FILTER_MESSAGES.blank) : ok(value);
    }
    default:
      return value === '' ? fail(FILTER_MESSAGES.blank) : ok(value);
  }
}

/** How a filter's value reads on its chip: booleans as Yes/No, types and classes by name. */
export function describeFilterValue(
  name: FilterName,
  value: string,
  context: Pick<FilterContext, 'types' | 'classes'>,
): string {
  if (BOOLEAN_FILTERS.includes(name)) {
    const parsed = parseBoolean(value);
    return parsed === null ? value : parsed ? 'Yes' : 'No';
  }
  if (name === 'type') {
    return context.types.find((t) => t.slug === value)?.display_name ?? value;
  }
  if (name === 'class_id') {
    return context.classes?.find((c) => c.id === value)?.name ?? value;
  }
  if (
    (WORKER_RUN_FILTERS.includes(name) || WORKER_VERSION_FILTERS.includes(name)) &&
    value === 'false'
  ) {
    return 'Manual';
  }
  return value;
}
