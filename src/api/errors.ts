/**
 * Error messages as spec 000 §8 states them, read from either shape an Arkindex-compatible
 * server answers in: structured bodies (type + errors[{code, detail, attr}]) are joined with
 * ' - '; DRF's default bodies fall back on plain text, __all__, detail, non_field_errors, then
 * the error's own message. Both give the same field errors, by field path, for forms.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Messages per field (attr), for forms that show errors next to their fields. */
    readonly fields: Record<string, string[]> = {},
    readonly code: string | null = null,
    readonly existingId: string | null = null,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The network failed or the server could not be reached at all. */
export class NetworkError extends Error {
  constructor(message = 'The server could not be reached. Check your connection and try again.') {
    super(message);
    this.name = 'NetworkError';
  }
}

/** One error of either shape: where it belongs (a field path such as `elements.2.name`) and why. */
interface ReadError {
  attr: string | null;
  detail: string;
  code: string | null;
}

const STRUCTURED_TYPES = ['client_error', 'server_error', 'validation_error'];

/** Keys of a DRF body that are about the whole request rather than one field. */
const GENERAL_KEYS = ['__all__', 'detail', 'non_field_errors'] as const;

function isStructured(body: unknown): body is { type: string; errors: unknown[] } {
  if (!body || typeof body !== 'object') return false;
  const candidate = body as { type?: unknown; errors?: unknown };
  return (
    typeof candidate.type === 'string' &&
    STRUCTURED_TYPES.includes(candidate.type) &&
    Array.isArray(candidate.errors)
  );
}

/** The items of a structured body; an item without a text detail says nothing and is skipped. */
function structuredErrors(errors: unknown[]): ReadError[] {
  return errors.flatMap((item) => {
    if (!item || typeof item !== 'object') return [];
    const { attr, code, detail } = item as Record<string, unknown>;
    if (typeof detail !== 'string' || !detail.trim()) return [];
    return [
      {
        attr: typeof attr === 'string' && attr ? attr : null,
        detail,
        code: typeof code === 'string' ? code : null,
      },
    ];
  });
}

/**
 * DRF's default body, walked down to its messages: `{"name": ["…"]}` is one field; a nested
 * serializer or a list of items (`{"elements": [{}, {"name": ["…"]}]}`) gives the dotted path
 * the structured shape uses (`elements.1.name`). A message is a string at the top or in a list;
 * a string deeper in an object is data (a 400 that embeds the existing object), not a message.
 */
function drfErrors(value: unknown, path: string[], inList: boolean, out: ReadError[]): void {
  if (typeof value === 'string') {
    if (value.trim() && (path.length <= 1 || inList)) {
      out.push({ attr: path.length ? path.join('.') : null, detail: value, code: null });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (typeof item === 'string') drfErrors(item, path, true, out);
      else drfErrors(item, [...path, String(index)], false, out);
    });
    return;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) drfErrors(item, [...path, key], false, out);
  }
}

function byField(errors: ReadError[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const error of errors) (fields[error.attr ?? 'non_field_errors'] ??= []).push(error.detail);
  return fields;
}

function joined(errors: ReadError[]): string {
  return errors.map((error) => error.detail).join(' - ');
}

/**
 * Turn a failed response's status and body (parsed JSON or text) into an ApiError, whichever of
 * the two shapes Arkindex-compatible servers send it in: the structured `{type, errors}` or
 * DRF's default field map. `fallback` (the status text) is the message when the body has none.
 */
export function parseErrorBody(status: number, body: unknown, fallback: string): ApiError {
  if (isStructured(body)) {
    const errors = structuredErrors(body.errors);
    const existingId = (body as { existing_id?: unknown }).existing_id;
    return new ApiError(
      status,
      joined(errors) || fallback,
      byField(errors),
      errors[0]?.code ?? null,
      typeof existingId === 'string' ? existingId : null,
      body,
    );
  }
  if (typeof body === 'string') {
    return new ApiError(status, body.trim() || fallback, {}, null, null, body);
  }
  const errors: ReadError[] = [];
  drfErrors(body, [], false, errors);
  // The general keys first, in the order of the fallbacks; then every field's messages.
  let message = joined(errors);
  for (const key of GENERAL_KEYS) {
    const general = errors.filter((error) => error.attr === key);
    if (general.length) {
      message = joined(general);
      break;
    }
  }
  return new ApiError(status, message || fallback, byField(errors), null, null, body);
}

/** The text to show for any error thrown by an API call. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'An unknown error occurred.';
}

/** Field errors for a form: only the fields it shows, the rest go to the form-wide message. */
export function fieldErrors(error: unknown): Record<string, string[]> {
  return error instanceof ApiError ? error.fields : {};
}

/** Network errors, 403 and 404 are expected and are not worth reporting to a service. */
export function isReportable(error: unknown): boolean {
  if (error instanceof NetworkError) return false;
  if (error instanceof ApiError) return error.status !== 403 && error.status !== 404;
  return true;
}
