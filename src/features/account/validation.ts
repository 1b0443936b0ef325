import { ApiError, errorMessage } from '@/api/errors';

/** Client-side form checks of spec 000 §5, as pure functions the forms and tests share. */

export const REQUIRED = 'This field is required.';
/** Registration and profile spell the mismatch one way, password reset another (spec §5). */
export const PASSWORDS_DONT_MATCH = "Passwords don't match";
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.values(errors).some(Boolean);
}

function blank(value: string): boolean {
  return value.trim() === '';
}

export interface LoginValues {
  email: string;
  password: string;
}

/** The login button stays disabled until both fields hold something. */
export function canSubmitLogin(values: LoginValues): boolean {
  return !blank(values.email) && values.password !== '';
}

export interface RegisterValues {
  display_name: string;
  email: string;
  password: string;
  confirmation: string;
}

export function validateRegister(values: RegisterValues): FieldErrors<keyof RegisterValues> {
  const errors: FieldErrors<keyof RegisterValues> = {};
  if (blank(values.display_name)) errors.display_name = REQUIRED;
  if (blank(values.email)) errors.email = REQUIRED;
  if (values.password === '') errors.password = REQUIRED;
  if (values.confirmation === '') errors.confirmation = REQUIRED;
  else if (values.password !== '' && values.password !== values.confirmation) {
    errors.confirmation = PASSWORDS_DONT_MATCH;
  }
  return errors;
}

export interface ResetValues {
  password: string;
  confirmation: string;
}

export function validateReset(values: ResetValues): FieldErrors<keyof ResetValues> {
  const errors: FieldErrors<keyof ResetValues> = {};
  if (values.password === '') errors.password = REQUIRED;
  if (values.confirmation === '') errors.confirmation = REQUIRED;
  else if (values.password !== '' && values.password !== values.confirmation) {
    errors.confirmation = PASSWORDS_DO_NOT_MATCH;
  }
  return errors;
}

export function validateResetRequest(values: { email: string }): FieldErrors<'email'> {
  return blank(values.email) ? { email: REQUIRED } : {};
}

export interface PasswordChangeValues {
  current_password: string;
  password: string;
  confirmation: string;
}

/**
 * An account created without a password (has_usable_password false) has no current password
 * to give, so it is only asked for when one exists.
 */
export function validatePasswordChange(
  values: PasswordChangeValues,
  needsCurrent: boolean,
): FieldErrors<keyof PasswordChangeValues> {
  const errors: FieldErrors<keyof PasswordChangeValues> = {};
  if (needsCurrent && values.current_password === '') errors.current_password = REQUIRED;
  if (values.password === '') errors.password = REQUIRED;
  if (values.confirmation === '') errors.confirmation = REQUIRED;
  else if (values.password !== '' && values.password !== values.confirmation) {
    errors.confirmation = PASSWORDS_DONT_MATCH;
  }
  return errors;
}

export function validateDisplayName(values: { display_name: string }): FieldErrors<'display_name'> {
  return blank(values.display_name) ? { display_name: REQUIRED } : {};
}

/**
 * Where `next` may send the browser after login: only a path on this site. "//host" and
 * "/\host" are read by browsers as another host, so they are refused like full URLs.
 */
export function safeNext(next: unknown): string | null {
  if (typeof next !== 'string') return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/** The corpus list is the default page after login (spec §2). */
export const AFTER_LOGIN = '/browse/';

export function destinationAfterLogin(next: unknown): string {
  return safeNext(next) ?? AFTER_LOGIN;
}

/** `validateSearch` for login and register: `next` is kept only when it is a string. */
export function parseNextSearch(search: Record<string, unknown>): { next?: string } {
  return typeof search.next === 'string' && search.next !== '' ? { next: search.next } : {};
}

export interface SplitErrors<K extends string> {
  fields: FieldErrors<K>;
  /** Whatever no shown field can hold: a non-field error, a network failure, a 403… */
  form: string | null;
}

/**
 * Splits a failed call's errors between the fields a form shows and the message above it, so
 * no server message is lost because the form has no field for it.
 */
export function splitErrors<K extends string>(
  error: unknown,
  shownFields: readonly K[],
): SplitErrors<K> {
  if (!(error instanceof ApiError)) return { fields: {}, form: errorMessage(error) };
  const fields: FieldErrors<K> = {};
  const rest: string[] = [];
  for (const [attr, messages] of Object.entries(error.fields)) {
    if ((shownFields as readonly string[]).includes(attr)) fields[attr as K] = messages.join(' ');
    else rest.push(...messages);
  }
  if (!hasErrors(fields) && rest.length === 0) return { fields, form: error.message };
  return { fields, form: rest.length ? rest.join(' - ') : null };
}

/**
 * The mailed verification link's query. The router reads query values as JSON, so a token
 * made only of digits arrives as a number and is turned back into text.
 */
export function parseVerifyEmailSearch(search: Record<string, unknown>): {
  uidb64?: string;
  token?: string;
} {
  const text = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  const uidb64 = text(search.uidb64);
  const token = text(search.token);
  return { ...(uidb64 ? { uidb64 } : {}), ...(token ? { token } : {}) };
}
