/**
 * Worker configurations (spec 000 §3, §5): a worker version declares the fields a configuration
 * may set (`configuration.user_configuration`, the schema), and a configuration is a JSON object
 * of values for those fields. One copy of the rules for the configuration editor and for the
 * API's create/update checks, so both refuse the same values with the same words.
 *
 * Like src/lib/polygon.ts, the server imports this file: it imports nothing and uses neither the
 * DOM nor Node (`tsconfig.shared.json` compiles it with the bare ES library).
 *
 * Wording: the spec gives most messages word for word. Where it only describes them, the
 * messages below chose:
 * - enum: `<value> is not a valid option.` (the spec's "is not a valid option." after the value
 *   refused, as Django REST framework words its choice errors);
 * - list: `Value must be a valid list of <subtype>.` ("of the subtype": the subtype's own name,
 *   int, float, string or bool, as the schema spells it);
 * - string, text, secret, element_type: `Value must be a valid string.` (the spec names the
 *   string check without its words; this follows the other types' sentence);
 * - model and worker_version: `Value must be a valid UUID` without a final stop, as the spec
 *   writes it next to `This model does not exist`.
 */

export const FIELD_TYPES = [
  'bool',
  'dict',
  'element_type',
  'enum',
  'float',
  'group',
  'int',
  'list',
  'model',
  'secret',
  'string',
  'text',
  'worker_version',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const LIST_SUBTYPES = ['int', 'float', 'string', 'bool'] as const;
export type ListSubtype = (typeof LIST_SUBTYPES)[number];

/** One entry of a version's `configuration.user_configuration`. */
export interface SchemaField {
  title: string;
  type: FieldType;
  /** Absent means required. */
  required?: boolean;
  default?: unknown;
  /** enum only. */
  choices?: unknown[];
  /** list only. */
  subtype?: ListSubtype;
  multiline?: boolean;
  help_text?: string;
  /** group only: the group's values nest under the group's key. */
  children?: Record<string, SchemaField>;
}
export type UserConfiguration = Record<string, SchemaField>;

export interface ConfigurationProblem {
  /** Dotted path of the field, e.g. "options.size"; '' for the configuration as a whole. */
  key: string;
  message: string;
}

export const CONFIGURATION_MESSAGES = {
  nameRequired: 'Please name your configuration',
  isDefault: 'This already is the default configuration',
  invalidJson: 'Please enter a valid JSON configuration',
  required: 'This field is required.',
  unrecognised: 'Unrecognised field',
  unknownType: 'Unknown field type',
  int: 'Value must be a valid integer.',
  float: 'Value must be a valid float.',
  string: 'Value must be a valid string.',
  bool: 'Value must be a valid boolean.',
  dict: 'Value must be a valid dictionary.',
  uuid: 'Value must be a valid UUID',
  modelMissing: 'This model does not exist',
  // Schema checks (a worker version's user_configuration), not in the spec.
  title: 'A field needs a title.',
  fieldShape: 'A field must be an object with a title and a type.',
  schemaShape: 'The user configuration must be an object of fields.',
  choices: 'An enum field needs a list of choices.',
  subtype: 'A list field needs a subtype: int, float, string or bool.',
  children: 'A group field needs an object of child fields.',
  flag: 'Value must be a valid boolean.',
  helpText: 'Value must be a valid string.',
} as const;

export function invalidOptionMessage(value: unknown): string {
  return `${typeof value === 'string' ? value : JSON.stringify(value)} is not a valid option.`;
}

export function invalidListMessage(subtype: ListSubtype): string {
  return `Value must be a valid list of ${subtype}.`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

function isRequired(field: SchemaField): boolean {
  return field.required !== false;
}

/** A value the user has not given: nothing, null, an empty text or an empty list. */
function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

function matchesSubtype(subtype: ListSubtype, item: unknown): boolean {
  switch (subtype) {
    case 'int':
      return Number.isInteger(item);
    case 'float':
      return typeof item === 'number' && Number.isFinite(item);
    case 'string':
      return typeof item === 'string';
    case 'bool':
      return typeof item === 'boolean';
  }
}

/** dict values are cast to text; only values that have a text form are accepted. */
function isDictValue(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    Object.values(value).every(
      (v) =>
        typeof v === 'string' ||
        typeof v === 'boolean' ||
        (typeof v === 'number' && Number.isFinite(v)),
    )
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameValue(a[key], b[key]))
    );
  }
  return false;
}

/**
 * The schema's fields, leaving out entries that are no field at all: a schema stored before its
 * checks, or by another server, must not break the editor or the API (schemaProblems names them).
 */
export function schemaFields(schema: UserConfiguration): [string, SchemaField][] {
  if (!isPlainObject(schema)) return [];
  return Object.entries(schema).filter((entry): entry is [string, SchemaField] =>
    isPlainObject(entry[1]),
  );
}

/** A group's child fields; nothing for a group without an object of children. */
export function childrenOf(field: SchemaField): UserConfiguration {
  return isPlainObject(field.children) ? field.children : {};
}

/** The message for a value of the wrong type, or null when the value fits the field. */
export function valueProblem(field: SchemaField, value: unknown): string | null {
  switch (field.type) {
    case 'int':
      return Number.isInteger(value) ? null : CONFIGURATION_MESSAGES.int;
    case 'float':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : CONFIGURATION_MESSAGES.float;
    case 'string':
    case 'text':
    case 'secret':
    case 'element_type':
      return typeof value === 'string' ? null : CONFIGURATION_MESSAGES.string;
    case 'enum':
      return (field.choices ?? []).some((choice) => sameValue(choice, value))
        ? null
        : invalidOptionMessage(value);
    case 'bool':
      return typeof value === 'boolean' ? null : CONFIGURATION_MESSAGES.bool;
    case 'dict':
      return isDictValue(value) ? null : CONFIGURATION_MESSAGES.dict;
    case 'list': {
      const subtype = field.subtype ?? 'string';
      return Array.isArray(value) && value.every((item) => matchesSubtype(subtype, item))
        ? null
        : invalidListMessage(subtype);
    }
    case 'model':
    case 'worker_version':
      return isUuid(value) ? null : CONFIGURATION_MESSAGES.uuid;
    case 'group':
      return isPlainObject(value) ? null : CONFIGURATION_MESSAGES.dict;
    default:
      return CONFIGURATION_MESSAGES.unknownType;
  }
}

const FIELD_PROPERTIES = new Set([
  'title',
  'type',
  'required',
  'default',
  'choices',
  'subtype',
  'multiline',
  'help_text',
  'children',
]);

function fieldProblems(key: string, raw: unknown): ConfigurationProblem[] {
  if (!isPlainObject(raw)) return [{ key, message: CONFIGURATION_MESSAGES.fieldShape }];
  const problems: ConfigurationProblem[] = [];
  for (const property of Object.keys(raw)) {
    if (!FIELD_PROPERTIES.has(property)) {
      problems.push({ key: join(key, property), message: CONFIGURATION_MESSAGES.unrecognised });
    }
  }
  if (typeof raw.title !== 'string' || !raw.title.trim()) {
    problems.push({ key: join(key, 'title'), message: CONFIGURATION_MESSAGES.title });
  }
  if (!(FIELD_TYPES as readonly unknown[]).includes(raw.type)) {
    problems.push({ key: join(key, 'type'), message: CONFIGURATION_MESSAGES.unknownType });
    return problems;
  }
  for (const flag of ['required', 'multiline'] as const) {
    if (raw[flag] !== undefined && typeof raw[flag] !== 'boolean') {
      problems.push({ key: join(key, flag), message: CONFIGURATION_MESSAGES.flag });
    }
  }
  if (raw.help_text !== undefined && typeof raw.help_text !== 'string') {
    problems.push({ key: join(key, 'help_text'), message: CONFIGURATION_MESSAGES.helpText });
  }
  const type = raw.type as FieldType;
  if (type === 'enum' && (!Array.isArray(raw.choices) || raw.choices.length === 0)) {
    problems.push({ key: join(key, 'choices'), message: CONFIGURATION_MESSAGES.choices });
    return problems;
  }
  if (type === 'list' && !(LIST_SUBTYPES as readonly unknown[]).includes(raw.subtype)) {
    problems.push({ key: join(key, 'subtype'), message: CONFIGURATION_MESSAGES.subtype });
    return problems;
  }
  if (type === 'group') {
    if (!isPlainObject(raw.children)) {
      problems.push({ key: join(key, 'children'), message: CONFIGURATION_MESSAGES.children });
      return problems;
    }
    for (const [childKey, child] of Object.entries(raw.children)) {
      problems.push(...fieldProblems(join(key, childKey), child));
    }
    if (raw.default !== undefined) {
      problems.push({ key: join(key, 'default'), message: CONFIGURATION_MESSAGES.unrecognised });
    }
    return problems;
  }
  if (raw.default !== undefined && raw.default !== null) {
    const message = valueProblem(raw as unknown as SchemaField, raw.default);
    if (message) problems.push({ key: join(key, 'default'), message });
  }
  return problems;
}

/**
 * What is wrong with a worker version's user_configuration, each problem at the dotted path of
 * the field (and property) concerned. An empty list means the schema can drive the editor.
 */
export function schemaProblems(schema: unknown): ConfigurationProblem[] {
  if (!isPlainObject(schema)) return [{ key: '', message: CONFIGURATION_MESSAGES.schemaShape }];
  return Object.entries(schema).flatMap(([key, field]) => fieldProblems(key, field));
}

/** The values a new configuration starts from: each field's default, groups nested. */
export function defaultConfiguration(schema: UserConfiguration): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, field] of schemaFields(schema)) {
    if (field.type === 'group') {
      const children = defaultConfiguration(childrenOf(field));
      if (Object.keys(children).length > 0) values[key] = children;
    } else if (field.default !== undefined && field.default !== null) {
      values[key] = field.default;
    }
  }
  return values;
}

function groupProblems(
  schema: UserConfiguration,
  values: Record<string, unknown>,
  prefix: string,
): ConfigurationProblem[] {
  const problems: ConfigurationProblem[] = [];
  for (const key of Object.keys(values)) {
    if (!Object.prototype.hasOwnProperty.call(schema, key)) {
      problems.push({ key: join(prefix, key), message: CONFIGURATION_MESSAGES.unrecognised });
    }
  }
  for (const [key, field] of schemaFields(schema)) {
    const path = join(prefix, key);
    const value = values[key];
    if (field.type === 'group') {
      if (value === undefined || value === null) {
        problems.push(...groupProblems(childrenOf(field), {}, path));
      } else if (!isPlainObject(value)) {
        problems.push({ key: path, message: CONFIGURATION_MESSAGES.dict });
      } else {
        problems.push(...groupProblems(childrenOf(field), value, path));
      }
      continue;
    }
    if (isEmpty(value)) {
      // A default fills a field left empty, so only a required field without one is missing.
      const hasDefault = field.default !== undefined && field.default !== null;
      if (isRequired(field) && !hasDefault) {
        problems.push({ key: path, message: CONFIGURATION_MESSAGES.required });
      }
      continue;
    }
    const message = valueProblem(field, value);
    if (message) problems.push({ key: path, message });
  }
  return problems;
}

/**
 * Spec 000 §5: a configuration must be a non-empty JSON object with only the schema's keys, each
 * value of its field's type, every required field set. Problems are keyed by dotted path.
 */
export function validateConfiguration(
  schema: UserConfiguration,
  values: unknown,
): ConfigurationProblem[] {
  if (!isPlainObject(values) || Object.keys(values).length === 0) {
    return [{ key: '', message: CONFIGURATION_MESSAGES.invalidJson }];
  }
  return groupProblems(schema, values, '');
}

/** Model fields whose value is a UUID, so a caller can check each model exists. */
export function modelReferences(
  schema: UserConfiguration,
  values: Record<string, unknown>,
  prefix = '',
): { key: string; id: string }[] {
  const references: { key: string; id: string }[] = [];
  for (const [key, field] of schemaFields(schema)) {
    const value = values[key];
    if (field.type === 'group' && isPlainObject(value)) {
      references.push(...modelReferences(childrenOf(field), value, join(prefix, key)));
    } else if (field.type === 'model' && isUuid(value)) {
      references.push({ key: join(prefix, key), id: value });
    }
  }
  return references;
}

/**
 * The values as stored: dict values cast to text (spec 000 §5), empty values dropped, group
 * values nested. Meant for values validateConfiguration accepted.
 */
export function normalizeConfiguration(
  schema: UserConfiguration,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const normalized: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const field = schema[key];
    if (!isPlainObject(field) || isEmpty(value)) continue;
    if (field.type === 'group' && isPlainObject(value)) {
      const children = normalizeConfiguration(childrenOf(field), value);
      if (Object.keys(children).length > 0) normalized[key] = children;
    } else if (field.type === 'dict' && isPlainObject(value)) {
      normalized[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    } else {
      normalized[key] = value;
    }
  }
  return normalized;
}

/** The values with each field left empty given its default, groups nested. */
export function withDefaults(
  schema: UserConfiguration,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...values };
  for (const [key, field] of schemaFields(schema)) {
    const value = values[key];
    if (field.type === 'group') {
      const children = withDefaults(childrenOf(field), isPlainObject(value) ? value : {});
      if (Object.keys(children).length > 0) filled[key] = children;
    } else if (isEmpty(value) && field.default !== undefined && field.default !== null) {
      filled[key] = field.default;
    }
  }
  return filled;
}

/**
 * Whether the values say nothing the defaults do not, a field left empty counting as its default
 * (spec 000 §5: such a configuration is refused).
 */
export function sameAsDefault(schema: UserConfiguration, values: Record<string, unknown>): boolean {
  return sameValue(
    normalizeConfiguration(schema, withDefaults(schema, values)),
    normalizeConfiguration(schema, defaultConfiguration(schema)),
  );
}
