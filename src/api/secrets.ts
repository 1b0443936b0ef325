/**
 * Workers' secrets (enterprise edition; site admins only): the fetchers, the one query-key
 * factory and the list's query options. Only names are ever cached: a value is fetched when
 * the user asks to reveal it, held by that screen alone, and never persisted or queued offline.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type Page } from './client';

export interface SecretSummary {
  id: string;
  name: string;
  created: string;
  updated: string;
}

export interface Secret {
  id: string;
  name: string;
  content: string;
}

export const SECRETS_PAGE_SIZE = 20;
/** As the server checks them (server/services/secrets/names.ts). */
export const SECRET_NAME_MAX_LENGTH = 250;

export const secretKeys = {
  all: ['secrets'] as const,
  lists: () => [...secretKeys.all, 'list'] as const,
  list: (page: number) => [...secretKeys.lists(), page] as const,
};

/** A name's segments stay path segments of the address, each one encoded. */
export function secretPath(name: string): string {
  return `/secret/${name.split('/').map(encodeURIComponent).join('/')}`;
}

export function secretListQuery(page: number) {
  return queryOptions({
    queryKey: secretKeys.list(page),
    queryFn: ({ signal }) =>
      api<Page<SecretSummary>>('/secrets/', {
        query: { page, page_size: SECRETS_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function createSecret(input: { name: string; content: string }): Promise<SecretSummary> {
  return api<SecretSummary>('/secrets/', { method: 'POST', body: input });
}

export function revealSecret(name: string): Promise<Secret> {
  return api<Secret>(secretPath(name));
}

export function deleteSecret(name: string): Promise<void> {
  return api<void>(secretPath(name), { method: 'DELETE' });
}
