/**
 * The export worker version's settings (its `user_configuration`) as plain inputs: a checkbox, a
 * choice, a number, a line per list item, JSON for a dictionary, text otherwise, groups nested.
 * Export workers take few settings; the workers feature keeps the full configuration editor.
 * Values are checked by the shared rules (src/lib/workerConfiguration.ts), the server's too.
 */
import { useId } from 'react';
import { ui } from '@/components/styles';
import {
  childrenOf,
  isPlainObject,
  schemaFields,
  type SchemaField,
  type UserConfiguration,
} from '@/lib/workerConfiguration';

/** What each input holds, by dotted path: text, or a tick for a bool. */
export type InputValues = Record<string, string | boolean>;

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

function inputOf(field: SchemaField, value: unknown): string | boolean {
  if (field.type === 'bool') return value === true;
  if (value === undefined || value === null) return '';
  if (field.type === 'enum') {
    const index = (field.choices ?? []).findIndex(
      (choice) => JSON.stringify(choice) === JSON.stringify(value),
    );
    return index < 0 ? '' : String(index);
  }
  if (field.type === 'list' && Array.isArray(value)) return value.map(String).join('\n');
  if (field.type === 'dict') return JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The inputs' first values: each field's default. */
export function initialInputs(schema: UserConfiguration, prefix = ''): InputValues {
  const values: InputValues = {};
  for (const [key, field] of schemaFields(schema)) {
    const path = join(prefix, key);
    if (field.type === 'group') Object.assign(values, initialInputs(childrenOf(field), path));
    else values[path] = inputOf(field, field.default);
  }
  return values;
}

function parseNumber(text: string, integer: boolean): unknown {
  const number = Number(text);
  if (text === '' || !Number.isFinite(number)) return text;
  return integer && !Number.isInteger(number) ? text : number;
}

function parseItem(field: SchemaField, text: string): unknown {
  switch (field.subtype) {
    case 'int':
      return parseNumber(text, true);
    case 'float':
      return parseNumber(text, false);
    case 'bool':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

/** A field's value from its input, or undefined when left empty; unparsable text kept as is. */
function valueOf(field: SchemaField, input: string | boolean | undefined): unknown {
  if (field.type === 'bool') return input === true;
  const text = typeof input === 'string' ? input.trim() : '';
  if (!text) return undefined;
  switch (field.type) {
    case 'int':
      return parseNumber(text, true);
    case 'float':
      return parseNumber(text, false);
    case 'enum':
      return (field.choices ?? [])[Number(text)];
    case 'list':
      return text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => parseItem(field, line));
    case 'dict':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    default:
      return typeof input === 'string' ? input : text;
  }
}

/** The configuration the inputs describe; empty fields left out, so defaults stand. */
export function configurationOf(
  schema: UserConfiguration,
  inputs: InputValues,
  prefix = '',
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, field] of schemaFields(schema)) {
    const path = join(prefix, key);
    const value =
      field.type === 'group'
        ? configurationOf(childrenOf(field), inputs, path)
        : valueOf(field, inputs[path]);
    if (
      value === undefined ||
      (isPlainObject(value) && field.type === 'group' && !Object.keys(value).length)
    )
      continue;
    values[key] = value;
  }
  return values;
}

export function ConfigurationInputs({
  schema,
  inputs,
  errors,
  disabled,
  onChange,
  prefix = '',
}: {
  schema: UserConfiguration;
  inputs: InputValues;
  /** Messages by dotted path. */
  errors: Record<string, string>;
  disabled: boolean;
  onChange: (path: string, value: string | boolean) => void;
  prefix?: string;
}) {
  return (
    <div className="flex flex-col gap-3">
      {schemaFields(schema).map(([key, field]) => (
        <FieldInput
          key={key}
          field={field}
          path={join(prefix, key)}
          inputs={inputs}
          errors={errors}
          disabled={disabled}
          onChange={onChange}
        />
      ))}
    </div>
  );
}

function FieldInput({
  field,
  path,
  inputs,
  errors,
  disabled,
  onChange,
}: {
  field: SchemaField;
  path: string;
  inputs: InputValues;
  errors: Record<string, string>;
  disabled: boolean;
  onChange: (path: string, value: string | boolean) => void;
}) {
  const id = useId();
  const error = errors[path];
  const message = error ? (
    <p id={`${id}-error`} className={ui.fieldError}>
      {error}
    </p>
  ) : null;
  const help = field.help_text ? <p className={ui.help}>{field.help_text}</p> : null;
  if (field.type === 'group') {
    return (
      <fieldset className="rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">{field.title}</legend>
        {help}
        {message}
        <ConfigurationInputs
          schema={childrenOf(field)}
          inputs={inputs}
          errors={errors}
          disabled={disabled}
          onChange={onChange}
          prefix={path}
        />
      </fieldset>
    );
  }
  const input = inputs[path];
  const common = {
    id,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  if (field.type === 'bool') {
    return (
      <div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            className={ui.checkbox}
            checked={input === true}
            onChange={(event) => onChange(path, event.target.checked)}
            {...common}
          />
          {field.title}
        </label>
        {help}
        {message}
      </div>
    );
  }
  const text = typeof input === 'string' ? input : '';
  const label = (
    <label htmlFor={id} className={ui.label}>
      {field.title}
      {field.required !== false && (
        <span className="text-red-700" title="Required">
          {' *'}
        </span>
      )}
    </label>
  );
  let control;
  if (field.type === 'enum') {
    control = (
      <select
        className={ui.input}
        value={text}
        onChange={(event) => onChange(path, event.target.value)}
        {...common}
      >
        <option value="">—</option>
        {(field.choices ?? []).map((choice, index) => (
          <option key={index} value={String(index)}>
            {typeof choice === 'string' ? choice : JSON.stringify(choice)}
          </option>
        ))}
      </select>
    );
  } else if (field.type === 'list' || field.type === 'dict' || field.type === 'text') {
    control = (
      <textarea
        className={ui.input}
        rows={field.type === 'list' ? 4 : 3}
        value={text}
        onChange={(event) => onChange(path, event.target.value)}
        {...common}
      />
    );
  } else {
    control = (
      <input
        type={field.type === 'secret' ? 'password' : 'text'}
        inputMode={field.type === 'int' || field.type === 'float' ? 'decimal' : undefined}
        className={ui.input}
        value={text}
        onChange={(event) => onChange(path, event.target.value)}
        {...common}
      />
    );
  }
  return (
    <div>
      {label}
      {control}
      {field.type === 'list' && <p className={ui.help}>One value a line.</p>}
      {help}
      {message}
    </div>
  );
}
