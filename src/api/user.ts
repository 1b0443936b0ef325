import { queryOptions } from '@tanstack/react-query';
import { persistedAndRefreshed } from '@/offline/queryPersister';
import { api, readCookie } from './client';
import { ApiError } from './errors';
import type { User } from './types';

export const userKeys = { current: ['user'] as const };

/**
 * The server's readable '0' or '1' (server/auth/sessions.ts): whether this browser may hold a
 * session. Another Arkindex server sets none, and is asked every time.
 */
const SESSION_HINT_COOKIE = 'folia.signed_in';

/**
 * The server itself said nobody is logged in: a 401 or 403 with the API's JSON body. A proxy's
 * or a captive portal's page is no answer about the session.
 */
function isAnonymousAnswer(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 401 || error.status === 403) &&
    typeof error.body === 'object' &&
    error.body !== null
  );
}

/**
 * The logged-in user, or null for an anonymous visitor. Anything but the server's own answer
 * that nobody is logged in (a network failure, a 5xx, an answer lost) throws, so the query
 * keeps the user it knew.
 */
export async function fetchCurrentUser(): Promise<User | null> {
  // Anonymous is a normal state: no request bound to fail, and no error in the console.
  if (readCookie(SESSION_HINT_COOKIE) === '0') return null;
  try {
    return await api<User>('/user/');
  } catch (error) {
    if (isAnonymousAnswer(error)) return null;
    throw error;
  }
}

export const currentUserQuery = queryOptions<
  User | null,
  Error,
  User | null,
  typeof userKeys.current
>({
  queryKey: userKeys.current,
  queryFn: fetchCurrentUser,
  staleTime: 60 * 1000,
  // Account changes made elsewhere (a password set from a mailed link, an e-mail verified in
  // another tab) show at once: asked again on every return to the tab, and on a reload even
  // when the persisted copy is recent (it shows meanwhile, so the shell does not wait).
  refetchOnWindowFocus: 'always',
  ...persistedAndRefreshed,
});

/** Verified as the spec means it: a verified e-mail, or a site admin. */
export function isVerified(user: User | null | undefined): boolean {
  return !!user && (user.verified_email || user.is_admin);
}

/** Sends the verification e-mail again (banner, unverified page and profile use it). */
export function resendVerificationEmail(): Promise<unknown> {
  return api('/user/verify-email/send/', { method: 'POST', body: {} });
}

/** The spec's confirmation once a new verification e-mail is on its way. */
export const VERIFICATION_SENT = 'You will receive a new email with a validation link soon.';
