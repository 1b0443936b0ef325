import { z } from 'zod';
import { validationErrors, type ErrorItem } from './errors';

/** DRF-worded messages, so clients that know Arkindex read familiar errors. */
function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'dict';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return 'str';
}

function issueToError(issue: z.core.$ZodIssue): ErrorItem {
  const attr = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors';
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return { code: 'required', detail: 'This field is required.', attr };
      if (input === null) return { code: 'null', detail: 'This field may not be null.', attr };
      const expected = issue.expected;
      const detail =
        expected === 'string'
          ? 'Not a valid string.'
          : expected === 'boolean'
            ? 'Must be a valid boolean.'
            : expected === 'int' || expected === 'number'
              ? 'A valid integer is required.'
              : expected === 'array'
                ? `Expected a list of items but got type "${describeType(input)}".`
                : expected === 'object'
                  ? `Invalid data. Expected a dictionary, but got ${describeType(input)}.`
                  : `Invalid value of type ${describeType(input)}.`;
      return { code: 'invalid', detail, attr };
    }
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? { code: 'blank', detail: 'This field may not be blank.', attr }
          : {
              code: 'min_length',
              detail: `Ensure this field has at least ${issue.minimum} characters.`,
              attr,
            };
      }
      return {
        code: 'min_value',
        detail: `Ensure this value is greater than or equal to ${issue.minimum}.`,
        attr,
      };
    case 'too_big':
      if (issue.origin === 'string') {
        return {
          code: 'max_length',
          detail: `Ensure this field has no more than ${issue.maximum} characters.`,
          attr,
        };
      }
      return {
        code: 'max_value',
        detail: `Ensure this value is less than or equal to ${issue.maximum}.`,
        attr,
      };
    case 'invalid_format':
      if (issue.format === 'email')
        return { code: 'invalid', detail: 'Enter a valid email address.', attr };
      if (issue.format === 'uuid')
        return { code: 'invalid', detail: 'Must be a valid UUID.', attr };
      return { code: 'invalid', detail: issue.message, attr };
    case 'invalid_value':
      // A choice left out is missing, as DRF words it, not a choice of "undefined".
      if (input === undefined) return { code: 'required', detail: 'This field is required.', attr };
      if (input === null) return { code: 'null', detail: 'This field may not be null.', attr };
      return {
        code: 'invalid_choice',
        detail: `"${String(input)}" is not a valid choice.`,
        attr,
      };
    default:
      return { code: 'invalid', detail: issue.message, attr };
  }
}

/** Parse a request body or query with a schema, or throw a 400 naming each bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // A request without a body reads as an empty object, as DRF's request.data does.
  const value = input === undefined && schema instanceof z.ZodObject ? {} : input;
  if (
    schema instanceof z.ZodObject &&
    (value === null || typeof value !== 'object' || Array.isArray(value))
  ) {
    throw validationErrors([
      {
        code: 'invalid',
        detail: `Invalid data. Expected a dictionary, but got ${value === undefined ? 'nothing' : describeType(value)}.`,
        attr: 'non_field_errors',
      },
    ]);
  }
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationErrors(result.error.issues.map(issueToError));
  return result.data;
}

export const uuidSchema = z.uuid();

/** A trimmed, required, non-blank string no longer than max. */
export function text(max: number) {
  return z.string().trim().min(1).max(max);
}

/** Query-string booleans as Arkindex accepts them. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0', 'True', 'False'])
  .transform((value) => value === 'true' || value === '1' || value === 'True');

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
});

/** A colour as Arkindex keeps them (element and entity types): 6 hex digits without '#'. */
export const color = z
  .string()
  .regex(/^[0-9a-fA-F]{6}$/, 'Enter a colour as 6 hexadecimal digits, without #.')
  .transform((value) => value.toLowerCase());
