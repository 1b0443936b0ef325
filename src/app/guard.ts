import { notFound, redirect, type ParsedLocation } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { serverInfoQuery } from '@/api/serverInfo';
import { currentUserQuery, isVerified } from '@/api/user';
import type { FeatureName, ServerInfo, User } from '@/api/types';

/** What a route needs, as spec 000 §2 assigns it. */
export interface Access {
  feature?: FeatureName;
  login?: boolean;
  verified?: boolean;
  /** Path parameters that must be UUIDs (anything else is "Page not found"). */
  uuidParams?: string[];
}

export type Decision =
  | { kind: 'allow' }
  | { kind: 'unreachable' }
  | { kind: 'not-found' }
  | { kind: 'login'; next: string }
  | { kind: 'unverified' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** The navigation guard, in the spec's order: server info, feature, login, verified e-mail. */
export function decideAccess(
  info: ServerInfo | null,
  user: User | null,
  access: Access,
  fullPath: string,
  params: Record<string, unknown> = {},
): Decision {
  if (!info) return { kind: 'unreachable' };
  if (access.feature && !info.features[access.feature]) return { kind: 'not-found' };
  if (access.uuidParams?.some((name) => !isUuid(params[name]))) return { kind: 'not-found' };
  if ((access.login || access.verified) && !user) return { kind: 'login', next: fullPath };
  if (access.verified && !isVerified(user)) return { kind: 'unverified' };
  return { kind: 'allow' };
}

export interface RouterContext {
  queryClient: QueryClient;
}

// Navigation must not wait on retries: offline-first retries pause until the network is back,
// which would leave a blank page instead of the unreachable page or the cached shell.
export async function loadServerInfo(queryClient: QueryClient): Promise<ServerInfo | null> {
  try {
    return await queryClient.ensureQueryData({ ...serverInfoQuery, retry: false });
  } catch {
    return null;
  }
}

export async function loadUser(queryClient: QueryClient): Promise<User | null> {
  try {
    return await queryClient.ensureQueryData({ ...currentUserQuery, retry: false });
  } catch {
    return null;
  }
}

/**
 * The user as the server says now, or the known one when it cannot say (offline, an error).
 * The known one may be a copy from before an account change made elsewhere.
 */
async function refreshUser(queryClient: QueryClient, known: User | null): Promise<User | null> {
  try {
    return await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0, retry: false });
  } catch {
    return known;
  }
}

/** A route's beforeLoad: runs the guard and redirects as it decides. */
export function requireAccess(access: Access) {
  return async ({
    context,
    location,
    params,
  }: {
    context: RouterContext;
    location: ParsedLocation;
    params: Record<string, unknown>;
  }): Promise<void> => {
    const info = await loadServerInfo(context.queryClient);
    let user = info ? await loadUser(context.queryClient) : null;
    let decision = decideAccess(info, user, access, location.href, params);
    if (decision.kind === 'login' || decision.kind === 'unverified') {
      // Refused on a copy (restored after a reload, or up to a minute old): the e-mail may have
      // been verified, or a login made, in another tab since. Asked again before refusing.
      user = await refreshUser(context.queryClient, user);
      decision = decideAccess(info, user, access, location.href, params);
    }
    switch (decision.kind) {
      case 'allow':
        return;
      case 'unreachable':
        throw redirect({ to: '/errors/unreachable' });
      case 'not-found':
        throw notFound();
      case 'login':
        throw redirect({ to: '/user/login', search: { next: decision.next } });
      case 'unverified':
        throw redirect({ to: '/errors/unverified' });
    }
  };
}
