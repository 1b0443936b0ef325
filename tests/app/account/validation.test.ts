import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '@/api/errors';
import {
  PASSWORDS_DONT_MATCH,
  PASSWORDS_DO_NOT_MATCH,
  REQUIRED,
  canSubmitLogin,
  destinationAfterLogin,
  parseNextSearch,
  parseVerifyEmailSearch,
  safeNext,
  splitErrors,
  validatePasswordChange,
  validateRegister,
  validateReset,
} from '@/features/account/validation';

describe('login', () => {
  it('needs both an e-mail and a password', () => {
    expect(canSubmitLogin({ email: '', password: '' })).toBe(false);
    expect(canSubmitLogin({ email: 'a@b.org', password: '' })).toBe(false);
    expect(canSubmitLogin({ email: '   ', password: 'secret' })).toBe(false);
    expect(canSubmitLogin({ email: 'a@b.org', password: 'secret' })).toBe(true);
  });
});

describe('validateRegister', () => {
  const filled = { display_name: 'Ada', email: 'a@b.org', password: 'p4ss', confirmation: 'p4ss' };

  it('accepts a complete form', () => {
    expect(validateRegister(filled)).toEqual({});
  });

  it('requires every field', () => {
    expect(
      validateRegister({ display_name: ' ', email: '', password: '', confirmation: '' }),
    ).toEqual({
      display_name: REQUIRED,
      email: REQUIRED,
      password: REQUIRED,
      confirmation: REQUIRED,
    });
  });

  it("says Passwords don't match on the confirmation", () => {
    expect(validateRegister({ ...filled, confirmation: 'p4sS' })).toEqual({
      confirmation: "Passwords don't match",
    });
    expect(PASSWORDS_DONT_MATCH).toBe("Passwords don't match");
  });
});

describe('validateReset', () => {
  it('requires both fields', () => {
    expect(validateReset({ password: '', confirmation: '' })).toEqual({
      password: REQUIRED,
      confirmation: REQUIRED,
    });
  });

  it('says Passwords do not match, spelled as the spec spells it for reset', () => {
    expect(validateReset({ password: 'one', confirmation: 'two' })).toEqual({
      confirmation: 'Passwords do not match',
    });
    expect(PASSWORDS_DO_NOT_MATCH).toBe('Passwords do not match');
    expect(validateReset({ password: 'one', confirmation: 'one' })).toEqual({});
  });
});

describe('validatePasswordChange', () => {
  const values = { current_password: '', password: 'new', confirmation: 'new' };

  it('asks for the current password only when the account has one', () => {
    expect(validatePasswordChange(values, true)).toEqual({ current_password: REQUIRED });
    expect(validatePasswordChange(values, false)).toEqual({});
  });

  it("says Passwords don't match", () => {
    expect(validatePasswordChange({ ...values, confirmation: 'other' }, false)).toEqual({
      confirmation: PASSWORDS_DONT_MATCH,
    });
  });
});

describe('next after login', () => {
  it('keeps paths on this site', () => {
    expect(safeNext('/corpus/1?page=2#top')).toBe('/corpus/1?page=2#top');
    expect(destinationAfterLogin('/process/')).toBe('/process/');
  });

  it('refuses other hosts and falls back to the project list', () => {
    for (const next of [
      '//evil.com',
      '/\\evil.com',
      'https://evil.com/',
      'javascript:alert(1)',
      '',
    ]) {
      expect(safeNext(next)).toBeNull();
      expect(destinationAfterLogin(next)).toBe('/browse/');
    }
    expect(destinationAfterLogin(undefined)).toBe('/browse/');
    expect(destinationAfterLogin(42)).toBe('/browse/');
  });

  it('reads next from the search only when it is text', () => {
    expect(parseNextSearch({ next: '/browse/x' })).toEqual({ next: '/browse/x' });
    expect(parseNextSearch({ next: 3 })).toEqual({});
    expect(parseNextSearch({})).toEqual({});
  });

  it('reads the verification link query, digits included', () => {
    expect(parseVerifyEmailSearch({ uidb64: 'MQ', token: 'c1-abc' })).toEqual({
      uidb64: 'MQ',
      token: 'c1-abc',
    });
    expect(parseVerifyEmailSearch({ uidb64: 12, token: {} })).toEqual({ uidb64: '12' });
  });
});

describe('splitErrors', () => {
  it('puts field errors on their fields and the rest above the form', () => {
    const error = new ApiError(400, 'Too short - Taken - Nope', {
      password: ['Too short'],
      email: ['Taken'],
      non_field_errors: ['Nope'],
    });
    expect(splitErrors(error, ['email', 'password'])).toEqual({
      fields: { email: 'Taken', password: 'Too short' },
      form: 'Nope',
    });
  });

  it('shows an error without fields, or a network failure, above the form', () => {
    expect(
      splitErrors(new ApiError(403, 'Registration is disabled on this server.'), ['email']),
    ).toEqual({ fields: {}, form: 'Registration is disabled on this server.' });
    expect(splitErrors(new NetworkError('offline'), ['email'])).toEqual({
      fields: {},
      form: 'offline',
    });
  });
});
