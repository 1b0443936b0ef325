/**
 * The error bodies the API answers with, to the letter, so that every suite compares against the
 * same text and a changed message fails everywhere it is promised.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A well-formed id that no row has. */
export const UNKNOWN_ID = '3f0c2a7e-1b4d-4c8e-9a6f-0d2e5b7c9a11';

export function validation(attr: string | null, detail: string, code = 'invalid') {
  return { type: 'validation_error', errors: [{ code, detail, attr }] };
}

/** A reference to a row the caller may not see answers as one to a row that does not exist. */
export function invalidPk(attr: string, id: string) {
  return validation(attr, `Invalid pk "${id}" - object does not exist.`, 'does_not_exist');
}

export function denied(detail: string) {
  return { type: 'client_error', errors: [{ code: 'permission_denied', detail, attr: null }] };
}

function clientError(code: string, detail: string) {
  return { type: 'client_error', errors: [{ code, detail, attr: null }] };
}

export const NOT_FOUND = clientError('not_found', 'Not found.');
export const INVALID_PAGE = clientError('not_found', 'Invalid page.');
export const NOT_AUTHENTICATED = clientError(
  'not_authenticated',
  'Authentication credentials were not provided.',
);
export const NOT_ADMIN = denied('You do not have admin access to this project.');

/**
 * Who may not add to a project they do not administer, and what each is answered. An outsider of
 * a private project is answered as for an unknown one instead: see invalidPk.
 */
export const CREATION_REFUSED_TO_NON_ADMINS = [
  ['anonymous', 'private', 401, NOT_AUTHENTICATED],
  ['guest', 'private', 403, NOT_ADMIN],
  ['contributor', 'private', 403, NOT_ADMIN],
  ['outsider', 'public', 403, NOT_ADMIN],
] as const;

/** The same for what a project already holds: outsiders learn nothing of a private project. */
export const REFUSED_TO_NON_ADMINS = [
  CREATION_REFUSED_TO_NON_ADMINS[0],
  ['outsider', 'private', 404, NOT_FOUND] as const,
  ...CREATION_REFUSED_TO_NON_ADMINS.slice(1),
];
