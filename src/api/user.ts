import { queryOptions } from '@tanstack/react-query';
import { persisted } from '@/offline/queryPersister';
import { api } from './client';
import { ApiError } from './errors';
import type { User } from './types';

export const userKeys = { current: ['user'] as const };

/** The logged-in user, or null for an anonymous visitor. */
export async function fetchCurrentUser(): Promise<User | null> {
  try {
    return await api<User>('/user/');
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
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
  ...persisted,
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
