import { useMutation, useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { serverInfoKeys } from '@/api/serverInfo';
import type { User } from '@/api/types';
import { VERIFICATION_SENT, resendVerificationEmail, userKeys } from '@/api/user';
import { notify, notifyError } from '@/components/notifications/store';
import { queryPersister } from '@/offline/queryPersister';

/** The account calls of spec 000 §7, their cache effects and the hooks the screens use. */

export interface LoginInput {
  email: string;
  password: string;
}

export interface RegisterInput {
  email: string;
  password: string;
  display_name: string;
}

export interface ProfileUpdate {
  display_name?: string;
  password?: string;
  current_password?: string;
}

export interface ResetConfirmInput {
  uidb64: string;
  token: string;
  password: string;
}

export interface VerifyEmailInput {
  uidb64: string;
  token: string;
}

export function login(input: LoginInput): Promise<User> {
  return api<User>('/user/login/', { method: 'POST', body: input });
}

export function register(input: RegisterInput): Promise<User> {
  return api<User>('/user/new/', { method: 'POST', body: input });
}

/** Logging out twice is not a failure: an anonymous answer means the session is gone already. */
export async function logout(): Promise<void> {
  try {
    await api<null>('/user/', { method: 'DELETE' });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return;
    throw error;
  }
}

export function updateProfile(changes: ProfileUpdate): Promise<User> {
  return api<User>('/user/', { method: 'PATCH', body: changes });
}

export function requestPasswordReset(email: string): Promise<unknown> {
  return api('/user/password-reset/', { method: 'POST', body: { email } });
}

export function confirmPasswordReset(input: ResetConfirmInput): Promise<unknown> {
  return api('/user/password-reset/confirm/', { method: 'POST', body: input });
}

export function verifyEmail(input: VerifyEmailInput): Promise<User> {
  return api<User>('/user/verify-email/', { method: 'POST', body: input });
}

function isServerInfo(query: Query): boolean {
  return query.queryKey[0] === serverInfoKeys.all[0];
}

function isCurrentUser(query: Query): boolean {
  return query.queryKey.length === 1 && query.queryKey[0] === userKeys.current[0];
}

// The persisted copies feed offline reloads: left behind, they would show the previous account.
function persist(query: Query | undefined): void {
  if (query) void queryPersister.persistQuery(query).catch(() => undefined);
}

/** Makes `user` the current user, in memory and in the persisted copy. */
export function setCurrentUser(queryClient: QueryClient, user: User | null): void {
  // An answer asked for before (a 401 from before a login) must not undo this one on arrival.
  void queryClient.cancelQueries({ queryKey: userKeys.current, exact: true });
  queryClient.setQueryData<User | null>(userKeys.current, user);
  persist(queryClient.getQueryCache().find({ queryKey: userKeys.current, exact: true }));
}

/**
 * After login what the visitor may see changed, so everything but server info is refetched;
 * not awaited, so the next page does not wait for every open query to come back.
 */
export function signedIn(queryClient: QueryClient, user: User): void {
  setCurrentUser(queryClient, user);
  void queryClient.invalidateQueries({
    predicate: (query) => !isServerInfo(query) && !isCurrentUser(query),
  });
}

/**
 * After logout nothing fetched for the previous user may stay, in memory or in IndexedDB; the
 * server info does not depend on the user and is kept.
 */
export async function signedOut(queryClient: QueryClient): Promise<void> {
  const perUser = (query: Query) => !isServerInfo(query) && !isCurrentUser(query);
  await queryClient.cancelQueries({ predicate: perUser });
  queryClient.removeQueries({ predicate: perUser });
  try {
    await queryPersister.removeQueries();
  } catch {
    // No IndexedDB (private browsing): there is nothing persisted to forget.
  }
  persist(queryClient.getQueryCache().find({ queryKey: serverInfoKeys.all }));
  setCurrentUser(queryClient, null);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => signedIn(queryClient, user),
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => signedIn(queryClient, user),
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => signedOut(queryClient),
  });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => setCurrentUser(queryClient, user),
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export function useConfirmPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPasswordReset,
    // The server ends every session of that account, possibly this browser's own.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.current, exact: true }),
  });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    // The link may be opened logged out or as someone else, so the answer is not taken as the
    // current user: the current user is asked for again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.current, exact: true }),
  });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: resendVerificationEmail,
    onSuccess: () => notify({ type: 'success', text: VERIFICATION_SENT }),
    onError: (error) => notifyError(error),
  });
}
