/**
 * The editor's inputs, one per field of the version's schema (spec 000 §3 field types), groups
 * as nested fieldsets. Required fields carry a mark; each field shows its help text and the
 * message of the check it fails, under it.
 */
import { useId, type ReactNode } from 'react';
import type { ElementType } from '@/api/types';
import { ui } from '@/components/styles';
import {
  FIELD_TYPES,
  CONFIGURATION_MESSAGES,
  type SchemaField,
  type UserConfiguration,
  childrenOf,
  schemaFields,
} from '@/lib/workerConfiguration';
import type { FieldState, GroupState } from './formState';
import { DictInput } from './DictInput';
import { ModelInput } from './ModelInput';

export interface FieldsContext {
  /** Messages by dotted path ('options.size'). */
  errors: Record<string, string>;
  disabled: boolean;
  /** The project's element types when a project is known; null gives a free text input. */
  elementTypes: ElementType[] | null;
  onChange: (path: string[], value: FieldState) => void;
}

export function ConfigurationFields({
  schema,
  state,
  path = [],
  context,
}: {
  schema: UserConfiguration;
  state: GroupState;
  path?: string[];
  context: FieldsContext;
}) {
  return (
    <div className="flex flex-col gap-4">
      {schemaFields(schema).map(([key, field]) => (
        <Field key={key} field={field} state={state[key]} path={[...path, key]} context={context} />
      ))}
    </div>
  );
}

function RequiredMark() {
  return (
    <span className="text-red-700" title="Required">
      {' *'}
    </span>
  );
}

function Field({
  field,
  state,
  path,
  context,
}: {
  field: SchemaField;
  state: FieldState | undefined;
  path: string[];
  context: FieldsContext;
}) {
  const id = useId();
  const key = path.join('.');
  const error = context.errors[key];
  const required = field.required !== false;
  const describedBy = [field.help_text && `${id}-help`, error && `${id}-error`]
    .filter(Boolean)
    .join(' ');
  const help = field.help_text ? (
    <p id={`${id}-help`} className={ui.help}>
      {field.help_text}
    </p>
  ) : null;
  const message = error ? (
    <p id={`${id}-error`} className={ui.fieldError}>
      {error}
    </p>
  ) : null;

  if (field.type === 'group') {
    return (
      <fieldset
        className="rounded-md border border-slate-200 p-3"
        aria-describedby={describedBy || undefined}
      >
        <legend className="px-1 text-sm font-semibold text-slate-800">{field.title}</legend>
        {help}
        {message}
        <ConfigurationFields
          schema={childrenOf(field)}
          state={(state as GroupState | undefined) ?? {}}
          path={path}
          context={context}
        />
      </fieldset>
    );
  }

  const common = {
    id,
    disabled: context.disabled,
    'aria-invalid': error ? true : undefined,
    'aria-required': required || undefined,
    'aria-describedby': describedBy || undefined,
  };
  const set = (value: FieldState) => context.onChange(path, value);
  const text = typeof state === 'string' ? state : '';

  if (field.type === 'bool') {
    return (
      <div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            className={ui.checkbox}
            checked={state === true}
            onChange={(event) => set(event.target.checked)}
            {...common}
          />
          {/* A box always gives a value, ticked or not: a mark would ask for nothing. */}
          {field.title}
        </label>
        {help}
        {message}
      </div>
    );
  }

  let input: ReactNode;
  switch (field.type) {
    case 'int':
    case 'float':
      input = (
        <input
          type="text"
          inputMode={field.type === 'int' ? 'numeric' : 'decimal'}
          className={ui.input}
          value={text}
          onChange={(event) => set(event.target.value)}
          {...common}
        />
      );
      break;
    case 'text':
    case 'string':
      input =
        field.type === 'text' || field.multiline ? (
          <textarea
            rows={4}
            className={ui.input}
            value={text}
            onChange={(event) => set(event.target.value)}
            {...common}
          />
        ) : (
          <input
            type="text"
            className={ui.input}
            value={text}
            onChange={(event) => set(event.target.value)}
            {...common}
          />
        );
      break;
    case 'secret':
      input = (
        <input
          type="text"
          autoComplete="off"
          placeholder="Secret name"
          className={ui.input}
          value={text}
          onChange={(event) => set(event.target.value)}
          {...common}
        />
      );
      break;
    case 'enum':
      input = (
        <select
          className={ui.input}
          value={text}
          onChange={(event) => set(event.target.value)}
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
      break;
    case 'list':
      input = (
        <textarea
          rows={3}
          className={ui.input}
          placeholder={`One ${field.subtype ?? 'string'} per line`}
          value={text}
          onChange={(event) => set(event.target.value)}
          {...common}
        />
      );
      break;
    case 'element_type':
      input = context.elementTypes ? (
        <select
          className={ui.input}
          value={text}
          onChange={(event) => set(event.target.value)}
          {...common}
        >
          <option value="">—</option>
          {/* A value no longer among the project's types stays visible rather than lost. */}
          {text && !context.elementTypes.some((type) => type.slug === text) && (
            <option value={text}>{text}</option>
          )}
          {context.elementTypes.map((type) => (
            <option key={type.slug} value={type.slug}>
              {type.display_name}
            </option>
          ))}
        </select>
      ) : (
        <input
          type="text"
          placeholder="Element type slug"
          className={ui.input}
          value={text}
          onChange={(event) => set(event.target.value)}
          {...common}
        />
      );
      break;
    case 'worker_version':
      input = (
        <input
          type="text"
          maxLength={36}
          placeholder="Worker version UUID"
          className={`${ui.input} font-mono`}
          value={text}
          onChange={(event) => set(event.target.value)}
          {...common}
        />
      );
      break;
    case 'model':
      input = <ModelInput value={text} onChange={set} inputProps={common} />;
      break;
    case 'dict':
      input = (
        <DictInput
          rows={Array.isArray(state) ? state : []}
          onChange={set}
          disabled={context.disabled}
          labelledBy={`${id}-label`}
          invalid={!!error}
        />
      );
      break;
    default:
      // A version made before a type was known, or by another server: say so, offer nothing.
      input = (
        <p className="mt-1 text-sm text-amber-800">
          {CONFIGURATION_MESSAGES.unknownType}: {String(field.type)}
        </p>
      );
  }
  const known = (FIELD_TYPES as readonly string[]).includes(field.type);
  return (
    <div>
      <label
        id={`${id}-label`}
        htmlFor={known && field.type !== 'dict' ? id : undefined}
        className={ui.label}
      >
        {field.title}
        {required && <RequiredMark />}
      </label>
      {input}
      {help}
      {message}
    </div>
  );
}
