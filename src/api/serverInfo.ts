import { queryOptions } from '@tanstack/react-query';
import { persisted } from '@/offline/queryPersister';
import { api } from './client';
import type { ServerInfo } from './types';

/**
 * Server info lives at one anonymous path; real Arkindex instances may expose it elsewhere,
 * so this is the only place that knows it.
 */
export function fetchServerInfo(): Promise<ServerInfo> {
  return api<ServerInfo>('/');
}

export const serverInfoKeys = { all: ['server-info'] as const };

export const serverInfoQuery = queryOptions<
  ServerInfo,
  Error,
  ServerInfo,
  typeof serverInfoKeys.all
>({
  queryKey: serverInfoKeys.all,
  queryFn: fetchServerInfo,
  staleTime: 5 * 60 * 1000,
  ...persisted,
});
