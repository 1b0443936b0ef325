/**
 * Every failure leaves the server in the structured form of drf-standardized-errors:
 * {type, errors: [{code, detail, attr}]} (plus existing_id on a 409 conflict).
 */
export type ErrorType = 'validation_error' | 'client_error' | 'server_error';

export interface ErrorItem {
  code: string;
  detail: string;
  attr: string | null;
}

export interface ErrorBody {
  type: ErrorType;
  errors: ErrorItem[];
  existing_id?: string;
  current?: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly type: ErrorType,
    readonly errors: ErrorItem[],
    readonly extra: {
      existing_id?: string;
      headers?: Record<string, string>;
      /** The entity as it is now, with a 412 (preconditions.ts). */
      current?: unknown;
    } = {},
  ) {
    super(errors.map((error) => error.detail).join(' - '));
  }

  body(): ErrorBody {
    const body: ErrorBody = { type: this.type, errors: this.errors };
    if (this.extra.existing_id) body.existing_id = this.extra.existing_id;
    if (this.extra.current !== undefined) body.current = this.extra.current;
    return body;
  }
}

export function validationError(attr: string | null, detail: string, code = 'invalid'): ApiError {
  return new ApiError(400, 'validation_error', [{ code, detail, attr }]);
}

export function validationErrors(errors: ErrorItem[]): ApiError {
  return new ApiError(400, 'validation_error', errors);
}

export function badRequest(detail: string, code = 'invalid'): ApiError {
  return new ApiError(400, 'client_error', [{ code, detail, attr: null }]);
}

export function notAuthenticated(): ApiError {
  return new ApiError(401, 'client_error', [
    {
      code: 'not_authenticated',
      detail: 'Authentication credentials were not provided.',
      attr: null,
    },
  ]);
}

export function permissionDenied(
  detail = 'You do not have permission to perform this action.',
): ApiError {
  return new ApiError(403, 'client_error', [{ code: 'permission_denied', detail, attr: null }]);
}

export function notFound(detail = 'Not found.'): ApiError {
  return new ApiError(404, 'client_error', [{ code: 'not_found', detail, attr: null }]);
}

export function conflict(detail: string, existingId: string, attr: string | null = null): ApiError {
  return new ApiError(409, 'client_error', [{ code: 'conflict', detail, attr }], {
    existing_id: existingId,
  });
}

export function throttled(seconds: number): ApiError {
  return new ApiError(
    429,
    'client_error',
    [
      {
        code: 'throttled',
        detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        attr: null,
      },
    ],
    { headers: { 'retry-after': String(seconds) } },
  );
}

export function serverError(): ApiError {
  return new ApiError(500, 'server_error', [
    { code: 'error', detail: 'A server error occurred.', attr: null },
  ]);
}

/** What DRF answers for a primary key that names nothing the caller may see. */
export function invalidPk(attr: string, id: string) {
  return validationError(attr, `Invalid pk "${id}" - object does not exist.`, 'does_not_exist');
}
