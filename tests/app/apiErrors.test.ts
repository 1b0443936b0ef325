import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api/client';
import { ApiError, NetworkError, errorMessage, isReportable, parseErrorBody } from '@/api/errors';

describe('parseErrorBody', () => {
  it('joins the details of a structured error with " - " and maps them by field', () => {
    const error = parseErrorBody(
      400,
      {
        type: 'validation_error',
        errors: [
          { code: 'required', detail: 'This field is required.', attr: 'email' },
          { code: 'invalid', detail: 'Enter a valid password.', attr: 'password' },
          { code: 'invalid', detail: 'Passwords do not match.', attr: null },
        ],
      },
      'Bad Request',
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      'This field is required. - Enter a valid password. - Passwords do not match.',
    );
    expect(error.fields).toEqual({
      email: ['This field is required.'],
      password: ['Enter a valid password.'],
      non_field_errors: ['Passwords do not match.'],
    });
    expect(error.code).toBe('required');
  });

  it('keeps existing_id and the conflict code of a 409', () => {
    const existing = '5b0c2a3e-1d4f-4a6b-9c8d-7e6f5a4b3c2d';
    const error = parseErrorBody(
      409,
      {
        type: 'client_error',
        errors: [
          { code: 'conflict', detail: 'A configuration with this name exists.', attr: null },
        ],
        existing_id: existing,
      },
      'Conflict',
    );
    expect(error.status).toBe(409);
    expect(error.code).toBe('conflict');
    expect(error.existingId).toBe(existing);
    expect(error.message).toBe('A configuration with this name exists.');
  });

  it('does not take a structured-looking body with an unknown type as structured', () => {
    const error = parseErrorBody(400, { type: 'other', errors: [], detail: 'Nope.' }, 'Bad');
    expect(error.message).toBe('Nope.');
  });

  it('uses a plain-text body as the message', () => {
    expect(parseErrorBody(502, '  Bad gateway from proxy \n', 'Bad Gateway').message).toBe(
      'Bad gateway from proxy',
    );
  });

  it('prefers __all__, then detail, then non_field_errors', () => {
    expect(
      parseErrorBody(
        400,
        { __all__: ['All wrong.'], detail: 'Detail.', non_field_errors: ['Non field.'] },
        'x',
      ).message,
    ).toBe('All wrong.');
    expect(
      parseErrorBody(400, { detail: 'Detail.', non_field_errors: ['Non field.'] }, 'x').message,
    ).toBe('Detail.');
    expect(
      parseErrorBody(400, { non_field_errors: ['One.', 'Two.'], name: ['Bad name.'] }, 'x').message,
    ).toBe('One. - Two.');
  });

  it('reads a DRF field map into fields and, failing the known keys, into the message', () => {
    const error = parseErrorBody(
      400,
      { name: ['This field may not be blank.'], email: 'Enter a valid email address.' },
      'Bad Request',
    );
    expect(error.fields).toEqual({
      name: ['This field may not be blank.'],
      email: ['Enter a valid email address.'],
    });
    expect(error.message).toBe('This field may not be blank. - Enter a valid email address.');
  });

  it('falls back to the given message when the body says nothing', () => {
    expect(parseErrorBody(500, null, 'Internal Server Error').message).toBe(
      'Internal Server Error',
    );
    expect(parseErrorBody(500, '   ', 'Internal Server Error').message).toBe(
      'Internal Server Error',
    );
    expect(parseErrorBody(500, {}, 'HTTP 500').message).toBe('HTTP 500');
    expect(parseErrorBody(400, { type: 'client_error', errors: [] }, 'Bad Request').message).toBe(
      'Bad Request',
    );
  });
});

describe('errorMessage', () => {
  it('shows the error message of any Error, a string as is, and a generic text otherwise', () => {
    expect(errorMessage(new ApiError(404, 'Not found.'))).toBe('Not found.');
    expect(errorMessage(new NetworkError())).toMatch(/could not be reached/);
    expect(errorMessage('Plain failure')).toBe('Plain failure');
    expect(errorMessage({ weird: true })).toBe('An unknown error occurred.');
  });
});

describe('isReportable', () => {
  it('does not report network errors, 403 and 404, and reports other API errors', () => {
    expect(isReportable(new NetworkError())).toBe(false);
    expect(isReportable(new ApiError(403, 'Forbidden'))).toBe(false);
    expect(isReportable(new ApiError(404, 'Not found'))).toBe(false);
    expect(isReportable(new ApiError(400, 'Bad'))).toBe(true);
    expect(isReportable(new ApiError(500, 'Boom'))).toBe(true);
  });
});

describe('api() error handling', () => {
  function reply(status: number, body: string, contentType: string) {
    return vi.fn(
      async () => new Response(body, { status, headers: { 'content-type': contentType } }),
    );
  }

  afterEach(() => vi.unstubAllGlobals());

  it('parses a structured error response into its message', async () => {
    vi.stubGlobal(
      'fetch',
      reply(
        400,
        JSON.stringify({
          type: 'validation_error',
          errors: [
            { code: 'blank', detail: 'Name is blank.', attr: 'name' },
            { code: 'max_length', detail: 'Name is too long.', attr: 'name' },
          ],
        }),
        'application/json',
      ),
    );
    await expect(api('/models/', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 400,
      message: 'Name is blank. - Name is too long.',
      fields: { name: ['Name is blank.', 'Name is too long.'] },
    });
  });

  it('treats an HTML reply to a JSON request as not found, even with a 200', async () => {
    vi.stubGlobal('fetch', reply(200, '<!doctype html><html></html>', 'text/html'));
    await expect(api('/nowhere/')).rejects.toMatchObject({ status: 404 });
  });

  it('treats a 304 to a request that was not conditional as an error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 304 })),
    );
    await expect(api('/corpus/')).rejects.toBeInstanceOf(ApiError);
  });

  it('turns a failed fetch into a NetworkError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api('/corpus/')).rejects.toBeInstanceOf(NetworkError);
  });
});
