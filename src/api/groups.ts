/**
 * User groups (enterprise edition): the fetchers, the one query-key factory and the query
 * options. A group's members and projects hang under its key, so dropping a group takes them
 * along. A group given a project is written through the project's members API (corpora).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type Page } from './client';

export const GROUP_LEVELS = { member: 10, admin: 100 } as const;
export type GroupLevel = (typeof GROUP_LEVELS)[keyof typeof GROUP_LEVELS];

export interface Group {
  id: string;
  name: string;
  /** The caller's level in the group; null for a site admin who is not a member. */
  level: GroupLevel | null;
  members_count: number;
  created: string;
  updated: string;
}

export interface GroupMember {
  id: string;
  level: GroupLevel;
  created: string;
  user: { id: string; email: string; display_name: string };
}

/** A project the group is a member of, with the group's level there. */
export interface GroupProject {
  id: string;
  level: number;
  created: string;
  corpus: { id: string; name: string };
}

export const GROUPS_PAGE_SIZE = 20;
/** As the server checks it (server/routes/groups/index.ts). */
export const GROUP_NAME_MAX_LENGTH = 100;
/** Enough for the add-a-group picker: a user is rarely in more groups than this. */
export const GROUP_PICKER_SIZE = 100;

export const groupKeys = {
  all: ['groups'] as const,
  lists: () => [...groupKeys.all, 'list'] as const,
  list: (page: number, pageSize: number) => [...groupKeys.lists(), page, pageSize] as const,
  detail: (id: string) => [...groupKeys.all, 'detail', id] as const,
  members: (id: string, page: number) => [...groupKeys.detail(id), 'members', page] as const,
  projects: (id: string) => [...groupKeys.detail(id), 'projects'] as const,
};

export function groupListQuery(page: number, pageSize = GROUPS_PAGE_SIZE) {
  return queryOptions({
    queryKey: groupKeys.list(page, pageSize),
    queryFn: ({ signal }) =>
      api<Page<Group>>('/groups/', { query: { page, page_size: pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function groupQuery(id: string) {
  return queryOptions({
    queryKey: groupKeys.detail(id),
    queryFn: ({ signal }) => api<Group>(`/group/${id}/`, { signal }),
  });
}

export function groupMembersQuery(id: string, page: number) {
  return queryOptions({
    queryKey: groupKeys.members(id, page),
    queryFn: ({ signal }) =>
      api<Page<GroupMember>>(`/group/${id}/members/`, {
        query: { page, page_size: GROUPS_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function groupProjectsQuery(id: string) {
  return queryOptions({
    queryKey: groupKeys.projects(id),
    queryFn: ({ signal }) =>
      api<Page<GroupProject>>(`/group/${id}/corpora/`, {
        query: { page_size: GROUP_PICKER_SIZE },
        signal,
      }),
  });
}

export function createGroup(input: { name: string }): Promise<Group> {
  return api<Group>('/groups/', { method: 'POST', body: input });
}

export function renameGroup(id: string, name: string): Promise<Group> {
  return api<Group>(`/group/${id}/`, { method: 'PATCH', body: { name } });
}

export function deleteGroup(id: string): Promise<void> {
  return api<void>(`/group/${id}/`, { method: 'DELETE' });
}

export function addGroupMember(
  groupId: string,
  input: { user_email: string; level: GroupLevel },
): Promise<GroupMember> {
  return api<GroupMember>(`/group/${groupId}/members/`, { method: 'POST', body: input });
}

export function updateGroupMember(
  groupId: string,
  memberId: string,
  level: GroupLevel,
): Promise<GroupMember> {
  return api<GroupMember>(`/group/${groupId}/member/${memberId}/`, {
    method: 'PATCH',
    body: { level },
  });
}

export function removeGroupMember(groupId: string, memberId: string): Promise<void> {
  return api<void>(`/group/${groupId}/member/${memberId}/`, { method: 'DELETE' });
}
