/**
 * The configuration editor's form, apart from React: what each field's input holds (text for
 * numbers, one line per list item, rows for a dictionary, a choice's position for an enum) and
 * how that turns into the configuration's JSON values and back.
 *
 * What a user types that does not parse is kept as typed, so the shared checks
 * (src/lib/workerConfiguration.ts) refuse it with the spec's message rather than the form
 * silently dropping it.
 */
import {
  isPlainObject,
  type ListSubtype,
  type SchemaField,
  type UserConfiguration,
  childrenOf,
  schemaFields,
} from '@/lib/workerConfiguration';

export interface DictRow {
  key: string;
  value: string;
}

export type FieldState = string | boolean | DictRow[] | GroupState;
export interface GroupState {
  [key: string]: FieldState;
}

const INTEGER = /^[-+]?\d+$/;

function parseInteger(text: string): unknown {
  return INTEGER.test(text) ? Number(text) : text;
}

function parseFloatText(text: string): unknown {
  const number = Number(text);
  return text !== '' && Number.isFinite(number) ? number : text;
}

function parseListItem(subtype: ListSubtype, text: string): unknown {
  switch (subtype) {
    case 'int':
      return parseInteger(text);
    case 'float':
      return parseFloatText(text);
    case 'bool':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'string':
      return text;
  }
}

function sameChoice(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function fieldState(field: SchemaField, value: unknown): FieldState {
  switch (field.type) {
    case 'bool':
      return typeof value === 'boolean' ? value : false;
    case 'dict':
      return isPlainObject(value)
        ? Object.entries(value).map(([key, item]) => ({ key, value: String(item) }))
        : [];
    case 'group':
      return toFormState(childrenOf(field), isPlainObject(value) ? value : {});
    case 'enum': {
      const index = (field.choices ?? []).findIndex((choice) => sameChoice(choice, value));
      return index < 0 ? '' : String(index);
    }
    case 'list':
      return Array.isArray(value) ? value.map(String).join('\n') : '';
    default:
      return value === undefined || value === null
        ? ''
        : typeof value === 'string'
          ? value
          : JSON.stringify(value);
  }
}

/** What the inputs show for these values (a new configuration passes the defaults). */
export function toFormState(
  schema: UserConfiguration,
  values: Record<string, unknown>,
): GroupState {
  return Object.fromEntries(
    schemaFields(schema).map(([key, field]) => [key, fieldState(field, values[key])]),
  );
}

/** A field's value from its input, or undefined when the input says nothing. */
function fieldValue(field: SchemaField, state: FieldState | undefined): unknown {
  switch (field.type) {
    case 'bool': {
      const checked = state === true;
      // An unticked box of a field without a default and not required says nothing, so such a
      // configuration can still equal the defaults.
      if (!checked && field.default === undefined && field.required === false) return undefined;
      return checked;
    }
    case 'dict': {
      const rows = Array.isArray(state) ? state : [];
      const entries = rows
        .filter((row) => row.key.trim())
        .map((row) => [row.key.trim(), row.value]);
      return entries.length ? Object.fromEntries(entries) : undefined;
    }
    case 'group': {
      const group = fromFormState(
        childrenOf(field),
        isPlainObject(state) ? (state as GroupState) : {},
      );
      return Object.keys(group).length ? group : undefined;
    }
    case 'enum': {
      if (typeof state !== 'string' || state === '') return undefined;
      return (field.choices ?? [])[Number(state)];
    }
    case 'list': {
      const lines = (typeof state === 'string' ? state : '')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      return lines.length
        ? lines.map((line) => parseListItem(field.subtype ?? 'string', line))
        : undefined;
    }
    case 'int':
    case 'float': {
      const text = typeof state === 'string' ? state.trim() : '';
      if (!text) return undefined;
      return field.type === 'int' ? parseInteger(text) : parseFloatText(text);
    }
    case 'model':
    case 'worker_version':
    case 'element_type':
    case 'secret': {
      const text = typeof state === 'string' ? state.trim() : '';
      return text || undefined;
    }
    default: {
      const text = typeof state === 'string' ? state : '';
      return text.trim() ? text : undefined;
    }
  }
}

/** The configuration the inputs describe; fields left empty are left out. */
export function fromFormState(
  schema: UserConfiguration,
  state: GroupState,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, field] of schemaFields(schema)) {
    const value = fieldValue(field, state[key]);
    if (value !== undefined) values[key] = value;
  }
  return values;
}

/** The state with one field, at a dotted path, changed. */
export function setFieldState(state: GroupState, path: string[], value: FieldState): GroupState {
  const [head, ...rest] = path;
  if (head === undefined) return state;
  if (rest.length === 0) return { ...state, [head]: value };
  const child = state[head];
  return {
    ...state,
    [head]: setFieldState(isPlainObject(child) ? (child as GroupState) : {}, rest, value),
  };
}

/**
 * The raw JSON mode's text parsed: the configuration object, or null when it is not a JSON
 * object (spec 000 §5: 'Please enter a valid JSON configuration').
 */
export function parseJsonConfiguration(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Problems keyed by the API's attr (`configuration.options.size`) or the checks' path. */
export function configurationKey(attr: string): string | null {
  if (attr === 'configuration') return '';
  return attr.startsWith('configuration.') ? attr.slice('configuration.'.length) : null;
}

/**
 * Required fields whose input the user emptied. The API lets a default stand in for a value
 * left out, but a required field shown empty in the form reads as missing, so the form asks for
 * it (spec 000 §5 'This field is required.').
 */
export function emptyRequiredFields(
  schema: UserConfiguration,
  state: GroupState,
  prefix: string[] = [],
): string[] {
  const empty: string[] = [];
  for (const [key, field] of schemaFields(schema)) {
    const path = [...prefix, key];
    if (field.type === 'group') {
      const child = state[key];
      empty.push(
        ...emptyRequiredFields(
          childrenOf(field),
          isPlainObject(child) ? (child as GroupState) : {},
          path,
        ),
      );
    } else if (
      field.required !== false &&
      field.type !== 'bool' &&
      fieldValue(field, state[key]) === undefined
    ) {
      empty.push(path.join('.'));
    }
  }
  return empty;
}
