/**
 * Error messages as spec 000 §8 states them: structured bodies (type + errors[{code, detail,
 * attr}]) are joined with ' - '; otherwise the fallbacks plain text, __all__, detail,
 * non_field_errors, then the error's own message.
 */
export interface ApiErrorItem {
  code: string;
  detail: string;
  attr: string | null;
}

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

function asStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(asStrings);
  return [];
}

function isStructured(body: unknown): body is { type: string; errors: ApiErrorItem[] } {
  if (!body || typeof body !== 'object') return false;
  const candidate = body as { type?: unknown; errors?: unknown };
  return (
    typeof candidate.type === 'string' &&
    ['client_error', 'server_error', 'validation_error'].includes(candidate.type) &&
    Array.isArray(candidate.errors)
  );
}

/** Turn a failed response's status and body (parsed JSON or text) into an ApiError. */
export function parseErrorBody(status: number, body: unknown, fallback: string): ApiError {
  if (isStructured(body)) {
    const fields: Record<string, string[]> = {};
    for (const error of body.errors) {
      const attr = error.attr ?? 'non_field_errors';
      (fields[attr] ??= []).push(error.detail);
    }
    const message = body.errors.map((error) => error.detail).join(' - ') || fallback;
    const first = body.errors[0];
    const existingId = (body as { existing_id?: unknown }).existing_id;
    return new ApiError(
      status,
      message,
      fields,
      first?.code ?? null,
      typeof existingId === 'string' ? existingId : null,
      body,
    );
  }
  if (typeof body === 'string' && body.trim())
    return new ApiError(status, body.trim(), {}, null, null, body);
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const fields: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(record)) {
      const strings = asStrings(value);
      if (strings.length) fields[key] = strings;
    }
    for (const key of ['__all__', 'detail', 'non_field_errors']) {
      const strings = asStrings(record[key]);
      if (strings.length)
        return new ApiError(status, strings.join(' - '), fields, null, null, body);
    }
    const any = Object.values(fields).flat();
    if (any.length) return new ApiError(status, any.join(' - '), fields, null, null, body);
  }
  return new ApiError(status, fallback, {}, null, null, body);
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
