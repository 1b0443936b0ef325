/**
 * The groups screens' writes. A change to a group refreshes it and the lists of groups; a
 * change of membership may also change the caller's own rights on projects, so the projects
 * are refreshed too.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { corpusKeys } from '@/api/corpora';
import {
  addGroupMember,
  createGroup,
  deleteGroup,
  groupKeys,
  removeGroupMember,
  renameGroup,
  updateGroupMember,
  type GroupLevel,
  type GroupMember,
} from '@/api/groups';

function refreshGroup(queryClient: QueryClient, groupId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: groupKeys.detail(groupId) }),
    queryClient.invalidateQueries({ queryKey: groupKeys.lists() }),
  ]);
}

/** Rights through groups show on every project: the projects are read again. */
function refreshProjects(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: corpusKeys.all });
}

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.lists() }),
  });
}

export function useRenameGroup(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => renameGroup(groupId, name),
    onSuccess: () => refreshGroup(queryClient, groupId),
  });
}

export function useDeleteGroup(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteGroup(groupId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: groupKeys.detail(groupId) });
      void refreshProjects(queryClient);
      return queryClient.invalidateQueries({ queryKey: groupKeys.lists() });
    },
  });
}

export function useAddGroupMember(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; level: GroupLevel }) =>
      addGroupMember(groupId, { user_email: input.email, level: input.level }),
    onSuccess: () => refreshGroup(queryClient, groupId),
  });
}

export function useChangeGroupMemberLevel(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { member: GroupMember; level: GroupLevel }) =>
      updateGroupMember(groupId, input.member.id, input.level),
    onSuccess: () => refreshGroup(queryClient, groupId),
  });
}

export function useRemoveGroupMember(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { member: GroupMember; isSelf: boolean }) =>
      removeGroupMember(groupId, input.member.id),
    onSuccess: (_data, { isSelf }) => {
      void refreshProjects(queryClient);
      if (!isSelf) return refreshGroup(queryClient, groupId);
      // Whoever leaves is taken off the page, which would only answer "not found" now.
      queryClient.removeQueries({ queryKey: groupKeys.detail(groupId) });
      return queryClient.invalidateQueries({ queryKey: groupKeys.lists() });
    },
  });
}
