/**
 * Project mutations and the membership resource. Memberships hang under their project's key,
 * so dropping or refreshing a project takes its member pages along.
 */
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { api, type Page } from '@/api/client';
import {
  corpusKeys,
  corpusListQuery,
  corpusQuery,
  createCorpus,
  deleteCorpus,
  forgetPersistedCorpus,
  updateCorpus,
  type CorpusCreate,
  type CorpusUpdate,
} from '@/api/corpora';
import { LEVELS, type Corpus, type Membership } from '@/api/types';

/** The API's default page size (spec 000 §9), which the members list uses as is. */
export const MEMBERS_PAGE_SIZE = 20;

export type Level = (typeof LEVELS)[keyof typeof LEVELS];

export const LEVEL_OPTIONS: { level: Level; label: string }[] = [
  { level: LEVELS.guest, label: 'Guest' },
  { level: LEVELS.contributor, label: 'Contributor' },
  { level: LEVELS.admin, label: 'Admin' },
];

export function levelLabel(level: number): string {
  // Levels between the named ones (a custom one set on the server) read as the one below.
  const match = [...LEVEL_OPTIONS].reverse().find((option) => level >= option.level);
  return match?.label ?? 'Guest';
}

export const membershipKeys = {
  all: (corpusId: string) => [...corpusKeys.detail(corpusId), 'memberships'] as const,
  page: (corpusId: string, page: number) => [...membershipKeys.all(corpusId), page] as const,
};

export function fetchMemberships(corpusId: string, page: number): Promise<Page<Membership>> {
  return api<Page<Membership>>(`/corpus/${corpusId}/memberships/`, { query: { page } });
}

export function membershipsQuery(corpusId: string, page: number) {
  return queryOptions({
    queryKey: membershipKeys.page(corpusId, page),
    queryFn: () => fetchMemberships(corpusId, page),
    // Paging keeps the previous page on screen instead of flashing a loading state.
    placeholderData: keepPreviousData,
  });
}

/** A user by e-mail, or (enterprise edition) a group by id, joins the project. */
export type MembershipCreate =
  | { corpus_id: string; user_email: string; level: Level }
  | { corpus_id: string; group_id: string; level: Level };

export function createMembership(input: MembershipCreate): Promise<Membership> {
  return api<Membership>('/memberships/', { method: 'POST', body: input });
}

export function updateMembership(id: string, level: Level): Promise<Membership> {
  return api<Membership>(`/membership/${id}/`, { method: 'PATCH', body: { level } });
}

export async function deleteMembership(id: string): Promise<void> {
  await api<null>(`/membership/${id}/`, { method: 'DELETE' });
}

// Mutations ------------------------------------------------------------------------------

function replaceInList(queryClient: QueryClient, corpus: Corpus): void {
  queryClient.setQueryData(corpusListQuery.queryKey, (list) =>
    list?.map((item) => (item.id === corpus.id ? corpus : item)),
  );
}

export function useCreateCorpus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CorpusCreate) => createCorpus(input),
    onSuccess: (corpus) => {
      queryClient.setQueryData(corpusQuery(corpus.id).queryKey, corpus);
      void queryClient.invalidateQueries({ queryKey: corpusListQuery.queryKey });
    },
  });
}

export function useUpdateCorpus(corpusId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: CorpusUpdate) => updateCorpus(corpusId, patch),
    onSuccess: (corpus) => {
      queryClient.setQueryData(corpusQuery(corpusId).queryKey, corpus);
      replaceInList(queryClient, corpus);
      void queryClient.invalidateQueries({ queryKey: corpusListQuery.queryKey });
    },
  });
}

export function useDeleteCorpus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (corpus: Corpus) => deleteCorpus(corpus.id),
    onSuccess: async (_data, corpus) => {
      queryClient.setQueryData(corpusListQuery.queryKey, (list) =>
        list?.filter((item) => item.id !== corpus.id),
      );
      // A page still showing the project drops it itself once it has moved away: removing an
      // observed query makes its observer fetch it again, into a "not found".
      queryClient.removeQueries({ queryKey: corpusKeys.detail(corpus.id), type: 'inactive' });
      void queryClient.invalidateQueries({ queryKey: corpusListQuery.queryKey });
      await forgetPersistedCorpus(corpus.id);
    },
  });
}

/**
 * A membership change may change the caller's own rights (an admin leaving or stepping down),
 * so the project itself is refreshed along with its members.
 */
function refreshAfterMembershipChange(queryClient: QueryClient, corpusId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: corpusKeys.detail(corpusId) }),
    queryClient.invalidateQueries({ queryKey: corpusListQuery.queryKey }),
  ]);
}

export function useAddMember(corpusId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; level: Level }) =>
      createMembership({ corpus_id: corpusId, user_email: input.email, level: input.level }),
    onSuccess: () => refreshAfterMembershipChange(queryClient, corpusId),
  });
}

export function useAddGroup(corpusId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { groupId: string; level: Level }) =>
      createMembership({ corpus_id: corpusId, group_id: input.groupId, level: input.level }),
    onSuccess: () => refreshAfterMembershipChange(queryClient, corpusId),
  });
}

export function useChangeMemberLevel(corpusId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { membership: Membership; level: Level }) =>
      updateMembership(input.membership.id, input.level),
    onSuccess: () => refreshAfterMembershipChange(queryClient, corpusId),
  });
}

export function useRemoveMember(corpusId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { membership: Membership; isSelf: boolean }) =>
      deleteMembership(input.membership.id),
    onSuccess: (_data, { isSelf }) => {
      if (!isSelf) return refreshAfterMembershipChange(queryClient, corpusId);
      // Whoever leaves is taken off the page; refetching the project now would only answer
      // "not found" on the screen being left, so it is merely marked stale.
      void queryClient.invalidateQueries({
        queryKey: corpusKeys.detail(corpusId),
        refetchType: 'none',
      });
      return queryClient.invalidateQueries({ queryKey: corpusListQuery.queryKey });
    },
  });
}
