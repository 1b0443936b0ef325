/**
 * Accounts: the rules for creating users and their passwords, the one-time links of e-mail
 * verification and password reset, and the login throttle. Routes and CLI commands share
 * these functions so an account made either way obeys the same rules.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Features } from '../config';
import type { Db } from '../db';
import type { User, UserUpdate } from '../db/schema';
import { hashPassword, randomToken } from '../auth/passwords';
import { checkToken, decodeUid, encodeUid, makeToken } from '../auth/signedTokens';
import { nowIso } from '../clock';
import { validationError, validationErrors, type ErrorItem } from '../errors';
import type { MailMessage } from '../mail';
import { parse } from '../validation';

export const DISPLAY_NAME_MAX = 120;
// RFC 5321 caps a forward path at 254 characters.
const EMAIL_MAX = 254;
// Bounds the work of one scrypt call; no real password is this long.
const PASSWORD_MAX = 4096;
const PASSWORD_MIN = 8;

export const DUPLICATE_EMAIL = 'A user with this email already exists.';

/** E-mails are stored lower-cased, so comparing them needs no function on the column. */
export const emailField = z.string().trim().min(1).max(EMAIL_MAX).toLowerCase().pipe(z.email());
export const passwordField = z.string().min(1).max(PASSWORD_MAX);
export const displayNameField = z.string().trim().min(1).max(DISPLAY_NAME_MAX);

const newUserSchema = z.object({
  email: emailField,
  password: passwordField,
  display_name: displayNameField.optional(),
});

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Django's default validators, with their wording and codes (all failures, not the first). */
export function passwordProblems(password: string, email: string, attr = 'password'): ErrorItem[] {
  const problems: ErrorItem[] = [];
  const lowered = password.toLowerCase();
  const local = normalizeEmail(email).split('@')[0] ?? '';
  // A local part of one or two letters would forbid half of all passwords.
  const similar =
    (local.length >= 3 && lowered.includes(local)) ||
    (lowered.length >= 3 && normalizeEmail(email).includes(lowered));
  if (similar) {
    problems.push({
      code: 'password_too_similar',
      detail: 'This password is too similar to the email.',
      attr,
    });
  }
  if (password.length < PASSWORD_MIN) {
    problems.push({
      code: 'password_too_short',
      detail: `This password is too short. It must contain at least ${PASSWORD_MIN} characters.`,
      attr,
    });
  }
  if (/^\d+$/.test(password)) {
    problems.push({
      code: 'password_entirely_numeric',
      detail: 'This password is entirely numeric.',
      attr,
    });
  }
  return problems;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row ?? null;
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

export async function findUserByUid(db: Db, uidb64: string): Promise<User | null> {
  const id = decodeUid(uidb64);
  return id ? findUserById(db, id) : null;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export interface NewUserInput {
  email: string;
  password: string;
  /** Defaults to the local part of the e-mail. */
  displayName?: string;
  isAdmin?: boolean;
  verified?: boolean;
}

/**
 * Validates and inserts a user: a valid, unused e-mail (stored lower-cased) and a password
 * passing the rules. Throws a 400 ApiError naming every bad field; inserts nothing then.
 */
export async function createUser(db: Db, input: NewUserInput): Promise<User> {
  const data = parse(newUserSchema, {
    email: input.email,
    password: input.password,
    display_name: input.displayName,
  });
  const errors: ErrorItem[] = [];
  if (await findUserByEmail(db, data.email)) {
    errors.push({ code: 'unique', detail: DUPLICATE_EMAIL, attr: 'email' });
  }
  errors.push(...passwordProblems(data.password, data.email));
  if (errors.length) throw validationErrors(errors);

  const now = nowIso();
  const user: User = {
    id: randomUUID(),
    email: data.email,
    display_name: data.display_name ?? data.email.split('@')[0] ?? data.email,
    password_hash: await hashPassword(data.password),
    is_admin: input.isAdmin ? 1 : 0,
    is_active: 1,
    verified_email: input.verified ? 1 : 0,
    can_manage_workers: 0,
    can_ingest: 0,
    auth_token: randomToken(),
    last_login: null,
    created: now,
    updated: now,
  };
  try {
    await db.insertInto('users').values(user).execute();
  } catch (error) {
    // Two sign-ups racing for one e-mail: the unique index decides, the loser gets the same 400.
    if (isUniqueViolation(error)) throw validationError('email', DUPLICATE_EMAIL, 'unique');
    throw error;
  }
  return user;
}

export async function updateUser(db: Db, id: string, changes: UserUpdate): Promise<User> {
  await db
    .updateTable('users')
    .set({ ...changes, updated: nowIso() })
    .where('id', '=', id)
    .execute();
  return (await findUserById(db, id)) as User;
}

export async function setPassword(db: Db, id: string, password: string): Promise<User> {
  return updateUser(db, id, { password_hash: await hashPassword(password) });
}

export interface SerializedUser {
  id: string;
  email: string;
  display_name: string;
  is_admin: boolean;
  verified_email: boolean;
  has_usable_password: boolean;
  can_manage_workers: boolean;
  can_ingest: boolean;
  features: Features;
  auth_token?: string;
  created: string;
}

/** The API's user object. `withToken: false` leaves the API token out, for other callers. */
export function serializeUser(
  user: User,
  features: Features,
  options: { withToken?: boolean } = {},
): SerializedUser {
  return {
    id: user.id,
    email: user.email,
    display_name: user.display_name,
    is_admin: user.is_admin === 1,
    verified_email: user.verified_email === 1,
    has_usable_password: user.password_hash !== null,
    can_manage_workers: user.can_manage_workers === 1,
    can_ingest: user.can_ingest === 1,
    features,
    ...(options.withToken === false ? {} : { auth_token: user.auth_token }),
    created: user.created,
  };
}

// One-time links. Each token signs a state that its use changes, so it works once.

const DAY_MS = 24 * 3600 * 1000;
const PASSWORD_RESET_MAX_AGE_MS = 3 * DAY_MS;
const VERIFY_EMAIL_MAX_AGE_MS = 7 * DAY_MS;

function resetState(user: User): string {
  // The new hash, and the last_login set by the next login, both retire the token.
  return [user.id, user.password_hash ?? '', user.last_login ?? ''].join('|');
}

function verifyState(user: User): string {
  return [user.id, user.email, user.verified_email].join('|');
}

export function passwordResetToken(secret: string, user: User): string {
  return makeToken(secret, 'password-reset', resetState(user));
}

export function checkPasswordResetToken(secret: string, user: User, token: string): boolean {
  return checkToken(secret, 'password-reset', resetState(user), token, PASSWORD_RESET_MAX_AGE_MS);
}

export function verifyEmailToken(secret: string, user: User): string {
  return makeToken(secret, 'verify-email', verifyState(user));
}

export function checkVerifyEmailToken(secret: string, user: User, token: string): boolean {
  return checkToken(secret, 'verify-email', verifyState(user), token, VERIFY_EMAIL_MAX_AGE_MS);
}

export function passwordResetMail(secret: string, origin: string, user: User): MailMessage {
  const link = `${origin}/user/reset/${encodeUid(user.id)}/${passwordResetToken(secret, user)}`;
  return {
    to: user.email,
    subject: 'Reset your password on Folia',
    text: [
      `Hello ${user.display_name},`,
      '',
      `Someone asked to reset the password of the Folia account ${user.email}.`,
      'To choose a new password, open this link:',
      '',
      link,
      '',
      'The link works once and expires in 3 days.',
      'If you did not ask for this, ignore this message: your password stays as it is.',
      '',
    ].join('\n'),
  };
}

export function verificationMail(secret: string, origin: string, user: User): MailMessage {
  const query = new URLSearchParams({
    uidb64: encodeUid(user.id),
    token: verifyEmailToken(secret, user),
  });
  const link = `${origin}/user/verify-email/?${query.toString()}`;
  return {
    to: user.email,
    subject: 'Verify your email address on Folia',
    text: [
      `Hello ${user.display_name},`,
      '',
      'Please confirm the email address of your Folia account by opening this link:',
      '',
      link,
      '',
      'The link expires in 7 days.',
      'If you did not create this account, ignore this message.',
      '',
    ].join('\n'),
  };
}

// Login throttle: failures are kept for a window; past a threshold each further failure doubles
// the wait before the next attempt is even checked.

const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const EMAIL_THRESHOLD = 5;
const IP_THRESHOLD = 20;
const MAX_BACKOFF_S = 900;

function ipKey(ip: string): string {
  return `ip:${ip}`;
}

async function backoffFor(db: Db, key: string, threshold: number, now: number): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll().as('failures'), eb.fn.max('at').as('last')])
    .where('key', '=', key)
    .where('at', '>', new Date(now - FAILURE_WINDOW_MS).toISOString())
    .executeTakeFirst();
  const failures = Number(row?.failures ?? 0);
  if (failures < threshold || !row?.last) return 0;
  const backoffMs = Math.min(2 ** (failures - threshold), MAX_BACKOFF_S) * 1000;
  const remaining = Date.parse(row.last) + backoffMs - now;
  return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
}

/** Seconds to wait before the next login attempt for this e-mail from this address; 0 = go. */
export async function loginBackoffSeconds(db: Db, email: string, ip: string): Promise<number> {
  const now = Date.now();
  const [byEmail, byIp] = await Promise.all([
    backoffFor(db, normalizeEmail(email), EMAIL_THRESHOLD, now),
    backoffFor(db, ipKey(ip), IP_THRESHOLD, now),
  ]);
  return Math.max(byEmail, byIp);
}

export async function recordLoginFailure(db: Db, email: string, ip: string): Promise<void> {
  const at = nowIso();
  await db
    .insertInto('login_failures')
    .values([
      { id: randomUUID(), key: normalizeEmail(email), at },
      { id: randomUUID(), key: ipKey(ip), at },
    ])
    .execute();
  // Rows past the window count for nothing; dropping them keeps the table small.
  await db
    .deleteFrom('login_failures')
    .where('at', '<=', new Date(Date.now() - FAILURE_WINDOW_MS).toISOString())
    .execute();
}

export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', normalizeEmail(email)).execute();
}
