import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api/client';
import { parseErrorBody } from '@/api/errors';
import { toFormErrors } from '@/lib/formErrors';

/** The same refusals in the two shapes Arkindex-compatible servers answer in. */
const BULK_ITEM_STRUCTURED = {
  type: 'validation_error',
  errors: [
    { code: 'blank', detail: 'This field may not be blank.', attr: 'elements.1.name' },
    { code: 'invalid', detail: 'A polygon needs three points.', attr: 'elements.2.polygon' },
  ],
};
const BULK_ITEM_DRF = {
  elements: [
    {},
    { name: ['This field may not be blank.'] },
    { polygon: ['A polygon needs three points.'] },
  ],
};

describe('Reading both error shapes', () => {
  it('gives the same field paths and message for a bulk item in either shape', () => {
    const structured = parseErrorBody(400, BULK_ITEM_STRUCTURED, 'Bad Request');
    const drf = parseErrorBody(400, BULK_ITEM_DRF, 'Bad Request');
    const fields = {
      'elements.1.name': ['This field may not be blank.'],
      'elements.2.polygon': ['A polygon needs three points.'],
    };
    expect(structured.fields).toEqual(fields);
    expect(drf.fields).toEqual(fields);
    expect(drf.message).toBe('This field may not be blank. - A polygon needs three points.');
    expect(structured.message).toBe(drf.message);
  });

  it('names a nested serializer’s fields by their path', () => {
    const error = parseErrorBody(
      400,
      { configuration: { lang: ['"xx" is not a valid choice.'] }, name: ['Too long.'] },
      'Bad Request',
    );
    expect(error.fields).toEqual({
      'configuration.lang': ['"xx" is not a valid choice.'],
      name: ['Too long.'],
    });
  });

  it('names a list field’s items by their index', () => {
    const error = parseErrorBody(
      400,
      { children: { '1': ['Invalid pk "x" - object does not exist.'] } },
      'Bad Request',
    );
    expect(error.fields).toEqual({ 'children.1': ['Invalid pk "x" - object does not exist.'] });
    expect(error.message).toBe('Invalid pk "x" - object does not exist.');
  });

  it('takes a top-level list of messages as non-field errors', () => {
    const error = parseErrorBody(400, ['This process is already running.'], 'Bad Request');
    expect(error.fields).toEqual({ non_field_errors: ['This process is already running.'] });
    expect(error.message).toBe('This process is already running.');
  });

  it('takes non_field_errors given as a plain string', () => {
    const error = parseErrorBody(400, { non_field_errors: 'Already exists' }, 'Bad Request');
    expect(error.message).toBe('Already exists');
    expect(error.fields).toEqual({ non_field_errors: ['Already exists'] });
  });

  it('does not read an object embedded in a 400 as messages', () => {
    // CreateModelVersion answers the version that already has this hash.
    const error = parseErrorBody(
      400,
      { hash: { id: '7b0c2a3e-1d4f-4a6b-9c8d-7e6f5a4b3c2d', state: 'available', size: 8 } },
      'Bad Request',
    );
    expect(error.fields).toEqual({});
    expect(error.message).toBe('Bad Request');
  });

  it('reads a DRF detail the way a structured error without attr reads', () => {
    const drf = parseErrorBody(404, { detail: 'No Element matches the given query.' }, 'x');
    const structured = parseErrorBody(
      404,
      {
        type: 'client_error',
        errors: [{ code: 'not_found', detail: 'No Element matches the given query.', attr: null }],
      },
      'x',
    );
    expect(drf.message).toBe('No Element matches the given query.');
    expect(structured.message).toBe(drf.message);
    expect(structured.code).toBe('not_found');
  });

  it('skips structured items that carry no text and falls back when none is left', () => {
    const error = parseErrorBody(
      400,
      {
        type: 'validation_error',
        errors: [null, { code: 'x', attr: 'name' }, { code: 'blank', detail: '', attr: 'name' }],
      },
      'Bad Request',
    );
    expect(error.message).toBe('Bad Request');
    expect(error.fields).toEqual({});
  });

  it('splits a DRF body between a form’s fields and its general messages', () => {
    const error = parseErrorBody(
      400,
      { name: ['Too long.'], corpus: ['Not yours.'], non_field_errors: ['Locked.'] },
      'Bad Request',
    );
    expect(error.message).toBe('Locked.');
    expect(toFormErrors(error, ['name', 'type'], 'Could not save')).toEqual({
      fields: { name: ['Too long.'] },
      general: ['Not yours.', 'Locked.'],
    });
  });
});

describe('api(): what shows when the body is not an error body', () => {
  function reply(status: number, body: string | null, headers: Record<string, string> = {}) {
    const texts: Record<number, string> = { 502: 'Bad Gateway', 503: 'Service Unavailable' };
    const statusText = texts[status] ?? '';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status, statusText, headers })),
    );
  }

  afterEach(() => vi.unstubAllGlobals());

  it('treats a proxy’s HTML error page as not found, whatever its status or label', async () => {
    reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {
      'content-type': 'text/html',
    });
    await expect(api('/corpus/')).rejects.toMatchObject({ status: 404, message: 'Not found.' });
    reply(404, '<!DOCTYPE html><title>Not Found</title>', { 'content-type': 'text/plain' });
    await expect(api('/corpus/')).rejects.toMatchObject({ status: 404, message: 'Not found.' });
  });

  it('reads a JSON error body that came labelled as text', async () => {
    reply(400, '{"name": ["This field is required."]}', { 'content-type': 'text/plain' });
    await expect(api('/elements/create/', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 400,
      message: 'This field is required.',
      fields: { name: ['This field is required.'] },
    });
  });

  it('shows a plain-text 5xx body as it is, and the status text for an empty one', async () => {
    reply(500, 'Server Error (500)\n', { 'content-type': 'text/plain' });
    await expect(api('/corpus/')).rejects.toMatchObject({
      status: 500,
      message: 'Server Error (500)',
    });
    reply(503, null);
    await expect(api('/corpus/')).rejects.toMatchObject({
      status: 503,
      message: 'Service Unavailable',
    });
    reply(500, '', { 'content-type': 'application/json' });
    await expect(api('/corpus/')).rejects.toMatchObject({ status: 500, message: 'HTTP 500' });
  });

  it('falls back on the status text for a JSON body of an unknown shape', async () => {
    reply(502, '{"upstream": 3, "retry": true}', { 'content-type': 'application/json' });
    await expect(api('/corpus/')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });
  });
});
