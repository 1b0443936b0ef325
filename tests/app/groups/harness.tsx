/**
 * The groups screens as the app wires them (the real route files for /group/{id} and
 * /user/profile under the app's root), over a small stand-in for the groups API with the
 * server's rules: members see a group, its admins change it, the last admin stays.
 */
import { Route as rootRoute } from '@/routes/__root';
import { Route as groupRoute } from '@/routes/group/$groupId';
import { Route as profileRoute } from '@/routes/user/profile';
import type { Group, GroupMember, GroupProject } from '@/api/groups';
import type { User } from '@/api/types';
import {
  APP_STALE_TIME,
  apiError,
  idSequence,
  json,
  makeInfo,
  pageOf,
  renderRoutes,
  stubFetch,
  userWith,
  type Call,
} from '../support/harness';

export { isolateEachTest } from '../support/harness';

export const uuid = idSequence('8d00');
export const ada: User = userWith(uuid(), {
  display_name: 'Ada Lovelace',
  email: 'ada@example.org',
});
export const grace: User = userWith(uuid(), {
  display_name: 'Grace Hopper',
  email: 'grace@example.org',
});
export const alan: User = userWith(uuid(), {
  display_name: 'Alan Turing',
  email: 'alan@example.org',
});
const ACCOUNTS = [ada, grace, alan];

const routeTree = rootRoute.addChildren([
  groupRoute.update({
    id: '/group/$groupId',
    path: '/group/$groupId',
    getParentRoute: () => rootRoute,
  } as never),
  profileRoute.update({
    id: '/user/profile',
    path: '/user/profile',
    getParentRoute: () => rootRoute,
  } as never),
]);

export interface FakeGroup {
  id: string;
  name: string;
  members: GroupMember[];
  projects: GroupProject[];
}

export function member(user: User, level: 10 | 100): GroupMember {
  return {
    id: uuid(),
    level,
    created: '2024-05-01T10:00:00Z',
    user: { id: user.id, email: user.email, display_name: user.display_name },
  };
}

export function makeGroup(name: string, members: GroupMember[], projects: string[] = []) {
  return {
    id: uuid(),
    name,
    members,
    projects: projects.map((project) => ({
      id: uuid(),
      level: 50,
      created: '2024-05-01T10:00:00Z',
      corpus: { id: uuid(), name: project },
    })),
  } satisfies FakeGroup;
}

const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
const NOT_ADMIN = 'You do not have admin access to this group.';
const LAST_ADMIN = 'A group must keep at least one admin.';

/** The groups API as `caller` sees it. */
export function fakeGroupsServer(groups: FakeGroup[], caller: User = ada) {
  const stored = [...groups];
  const levelOf = (group: FakeGroup) =>
    group.members.find((m) => m.user.id === caller.id)?.level ?? null;
  const summary = (group: FakeGroup): Group => ({
    id: group.id,
    name: group.name,
    level: levelOf(group),
    members_count: group.members.length,
    created: '2024-05-01T10:00:00Z',
    updated: '2024-05-01T10:00:00Z',
  });
  const visible = (id: string) =>
    stored.find((group) => group.id === id && (levelOf(group) !== null || caller.is_admin));
  const isAdmin = (group: FakeGroup) => caller.is_admin || (levelOf(group) ?? 0) >= 100;
  const denied = () =>
    apiError(403, [{ attr: null, detail: NOT_ADMIN, code: 'permission_denied' }]);
  const lastAdmin = (group: FakeGroup, entry: GroupMember) =>
    entry.level >= 100 && group.members.filter((m) => m.level >= 100).length === 1;

  const answer = (call: Call): Response => {
    const page = Number(call.query.get('page') ?? '1');
    const size = Number(call.query.get('page_size') ?? '20');
    const link = (n: number) => `http://localhost/api/v1${call.path}?page=${n}`;
    if (call.path === '/groups/') {
      if (call.method === 'POST') {
        const name = ((call.body as { name?: string }).name ?? '').trim();
        if (!name) {
          return apiError(400, [
            { attr: 'name', detail: 'This field may not be blank.', code: 'blank' },
          ]);
        }
        const group = makeGroup(name, [member(caller, 100)]);
        stored.push(group);
        return json(201, summary(group));
      }
      const mine = stored
        .filter((group) => levelOf(group) !== null || caller.is_admin)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(summary);
      return json(200, pageOf(mine, page, size, link));
    }
    const match = /^\/group\/([^/]+)\/(?:(members|corpora)\/|member\/([^/]+)\/)?$/.exec(call.path);
    const group = match && visible(match[1]!);
    if (!match || !group) return notFound();
    const [, , list, memberId] = match;
    if (list === 'corpora') return json(200, pageOf(group.projects, page, size, link));
    if (list === 'members') {
      if (call.method === 'GET') {
        const sorted = [...group.members].sort((a, b) => b.level - a.level);
        return json(200, pageOf(sorted, page, size, link));
      }
      if (!isAdmin(group)) return denied();
      const body = call.body as { user_email: string; level: 10 | 100 };
      const account = ACCOUNTS.find((a) => a.email === body.user_email.toLowerCase());
      if (!account) {
        return apiError(400, [
          {
            attr: 'user_email',
            detail: 'No user with this email address exists.',
            code: 'does_not_exist',
          },
        ]);
      }
      const added = member(account, body.level);
      group.members.push(added);
      return json(201, added);
    }
    if (memberId) {
      const entry = group.members.find((m) => m.id === memberId);
      if (!entry) return notFound();
      const self = entry.user.id === caller.id;
      if (!isAdmin(group) && !(self && call.method === 'DELETE')) return denied();
      if (call.method === 'PATCH') {
        const level = (call.body as { level: 10 | 100 }).level;
        if (level < 100 && lastAdmin(group, entry)) {
          return apiError(400, [{ attr: 'level', detail: LAST_ADMIN, code: 'last_admin' }]);
        }
        entry.level = level;
        return json(200, entry);
      }
      if (lastAdmin(group, entry)) {
        return apiError(400, [
          { attr: 'non_field_errors', detail: LAST_ADMIN, code: 'last_admin' },
        ]);
      }
      group.members.splice(group.members.indexOf(entry), 1);
      return json(204, null);
    }
    if (call.method === 'GET') return json(200, summary(group));
    if (!isAdmin(group)) return denied();
    if (call.method === 'PATCH') {
      const name = ((call.body as { name?: string }).name ?? '').trim();
      group.name = name;
      return json(200, summary(group));
    }
    stored.splice(stored.indexOf(group), 1);
    return json(204, null);
  };
  return { ...stubFetch(answer), stored };
}

export function renderGroups(
  url: string,
  { user = ada, enterprise = true }: { user?: User; enterprise?: boolean } = {},
) {
  return renderRoutes(routeTree as never, {
    url,
    info: makeInfo({ enterprise }),
    user,
    staleTime: APP_STALE_TIME,
  });
}
