/**
 * The site administration's resources: accounts and projects as site admins see them
 * (/admin/… on our server), and a project's allowed metadata. These are settings changed online,
 * like a project's members, not annotations: nothing here goes through the outbox.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Page } from '@/api/client';
import type { AllowedMetadata, MetadataType } from '@/api/types';
import { userKeys } from '@/api/user';
import { entityKeys } from '@/offline/queries';

/** The server's page size for these lists. */
export const ADMIN_PAGE_SIZE = 20;

export interface AdminUser {
  id: string;
  email: string;
  display_name: string;
  is_admin: boolean;
  is_active: boolean;
  verified_email: boolean;
  can_manage_workers: boolean;
  has_usable_password: boolean;
  created: string;
  last_login: string | null;
}

export interface AdminCorpus {
  id: string;
  name: string;
  public: boolean;
  created: string;
  members: number;
}

export type AdminUserChanges = Partial<
  Pick<AdminUser, 'is_admin' | 'verified_email' | 'is_active' | 'can_manage_workers'>
>;

export interface ListQuery {
  page: number;
  search: string;
}

export const adminKeys = {
  all: ['admin'] as const,
  users: (query: ListQuery) => [...adminKeys.all, 'users', query] as const,
  corpora: (query: ListQuery) => [...adminKeys.all, 'corpora', query] as const,
  allowedMetadata: (corpusId: string, page: number) =>
    [...adminKeys.all, 'allowed-metadata', corpusId, page] as const,
};

export function adminUsersQuery(query: ListQuery) {
  return queryOptions({
    queryKey: adminKeys.users(query),
    queryFn: () =>
      api<Page<AdminUser>>('/admin/users/', {
        query: { page: query.page, search: query.search },
      }),
    // Paging keeps the previous page on screen instead of flashing a loading state.
    placeholderData: keepPreviousData,
  });
}

export function adminCorporaQuery(query: ListQuery) {
  return queryOptions({
    queryKey: adminKeys.corpora(query),
    queryFn: () =>
      api<Page<AdminCorpus>>('/admin/corpora/', {
        query: { page: query.page, search: query.search },
      }),
    placeholderData: keepPreviousData,
  });
}

export function allowedMetadataPageQuery(corpusId: string, page: number) {
  return queryOptions({
    queryKey: adminKeys.allowedMetadata(corpusId, page),
    queryFn: () =>
      api<Page<AllowedMetadata>>(`/corpus/${corpusId}/allowed-metadata/`, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { user: AdminUser; changes: AdminUserChanges }) =>
      api<AdminUser>(`/admin/users/${input.user.id}/`, { method: 'PATCH', body: input.changes }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'users'] }),
        // The admin may have changed what the navbar shows of someone signed in here.
        queryClient.invalidateQueries({ queryKey: userKeys.current }),
      ]),
  });
}

/**
 * The metadata panel reads the allowed list through the local store: it is refreshed too, so
 * an annotator's form offers the new names at once.
 */
function refreshAllowedMetadata(queryClient: ReturnType<typeof useQueryClient>, corpusId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'allowed-metadata', corpusId] }),
    queryClient.invalidateQueries({ queryKey: entityKeys.allowedMetadata(corpusId) }),
  ]);
}

export function useCreateAllowedMetadata(corpusId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; type: MetadataType }) =>
      api<AllowedMetadata>(`/corpus/${corpusId}/allowed-metadata/`, {
        method: 'POST',
        body: input,
      }),
    onSuccess: () => refreshAllowedMetadata(queryClient, corpusId),
  });
}

export function useDeleteAllowedMetadata(corpusId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (allowed: AllowedMetadata) =>
      api<null>(`/corpus/${corpusId}/allowed-metadata/${allowed.id}/`, { method: 'DELETE' }),
    onSuccess: () => refreshAllowedMetadata(queryClient, corpusId),
  });
}
