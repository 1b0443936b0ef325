/**
 * ListGroups, CreateGroup, RetrieveGroup, PartialUpdateGroup, DestroyGroup, ListGroupMembers,
 * CreateGroupMember, PartialUpdateGroupMember, DestroyGroupMember and ListGroupCorpora
 * (enterprise edition; rules in services/groups/ and permissions.ts). A group member's entry
 * is changed under its group, `/group/{id}/member/{memberId}/`, rather than through
 * `/membership/{id}/`: that path already names a project's or a model's membership, and the
 * group in the path is what decides who may change it. A group's place in a project goes
 * through the project's members API (routes/memberships.ts) with `group_id`.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, requireVerified } from '../../auth/plugin';
import { paginate } from '../../pagination';
import {
  createGroup,
  deleteGroup,
  groupJsonFor,
  groupPages,
  renameGroup,
  requireGroup,
  requireGroupsEnabled,
} from '../../services/groups/groups';
import {
  GROUP_MEMBER_LEVELS,
  addGroupMember,
  groupMemberPages,
  removeGroupMember,
  requireGroupMemberChange,
  updateGroupMember,
} from '../../services/groups/members';
import { groupProjectPages } from '../../services/groups/projects';
import { parse, text } from '../../validation';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';

const GROUP_NAME_MAX = 100;

const createBody = z.object({ name: text(GROUP_NAME_MAX) });
const updateBody = z.object({ name: text(GROUP_NAME_MAX).optional() });
// The integer check first, so a missing or null level reads as such, not as a bad choice.
const level = z.int().pipe(z.literal(GROUP_MEMBER_LEVELS));
const createMemberBody = z.object({ user_email: z.string().trim().pipe(z.email()), level });
const updateMemberBody = z.object({ level: level.optional() });

const group = z
  .object({
    id: z.uuid(),
    name: z.string(),
    level: z.number().int().nullable().describe("The caller's level: 10 member, 100 admin"),
    members_count: z.number().int(),
    created: z.string(),
    updated: z.string(),
  })
  .meta({ id: 'Group' });
const groupMember = z
  .object({
    id: z.uuid(),
    level: z.number().int(),
    created: z.string(),
    user: z.object({ id: z.uuid(), email: z.string(), display_name: z.string() }),
  })
  .meta({ id: 'GroupMember' });
const groupCorpus = z
  .object({
    id: z.uuid().describe("The group's membership of the project"),
    level: z.number().int(),
    created: z.string(),
    corpus: z.object({ id: z.uuid(), name: z.string() }),
  })
  .meta({ id: 'GroupCorpus' });
const memberParams = z.object({ id: z.uuid(), memberId: z.uuid() });

const tags = ['groups'];
const schemas = {
  ListGroups: {
    'x-paginated': true,
    querystring: pageQuery,
    response: { 200: paginated(group), ...errors(401, 404) },
  },
  CreateGroup: {
    body: createBody,
    response: { 201: group, ...errors(400, 401, 403, 404) },
  },
  RetrieveGroup: {
    params: idParams,
    response: { 200: group, ...errors(401, 404) },
  },
  PartialUpdateGroup: {
    params: idParams,
    body: updateBody,
    response: { 200: group, ...errors(400, 401, 403, 404) },
  },
  DestroyGroup: {
    params: idParams,
    response: { 204: noContent, ...errors(401, 403, 404) },
  },
  ListGroupMembers: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(groupMember), ...errors(401, 404) },
  },
  CreateGroupMember: {
    params: idParams,
    body: createMemberBody,
    response: { 201: groupMember, ...errors(400, 401, 403, 404, 409) },
  },
  PartialUpdateGroupMember: {
    params: memberParams,
    body: updateMemberBody,
    response: { 200: groupMember, ...errors(400, 401, 403, 404) },
  },
  DestroyGroupMember: {
    params: memberParams,
    response: { 204: noContent, ...errors(400, 401, 403, 404) },
  },
  ListGroupCorpora: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(groupCorpus), ...errors(401, 404) },
  },
};
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };
type MemberParams = { Params: { id: string; memberId: string } };

export async function groupRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  // Every route is unknown outside the enterprise edition.
  app.addHook('onRequest', async () => requireGroupsEnabled(app));

  app.get('/groups/', schema('ListGroups'), async (request) =>
    paginate(request, groupPages(db, requireUser(request))),
  );

  app.post('/groups/', schema('CreateGroup'), async (request, reply) => {
    const user = requireVerified(request);
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createGroup(db, user, input));
  });

  app.get<IdParams>('/group/:id/', schema('RetrieveGroup'), async (request) => {
    const user = requireUser(request);
    const access = await requireGroup(db, user, request.params.id, 'read');
    return groupJsonFor(db, user, access.group.id);
  });

  app.patch<IdParams>('/group/:id/', schema('PartialUpdateGroup'), async (request) => {
    const user = requireUser(request);
    const access = await requireGroup(db, user, request.params.id, 'admin');
    return renameGroup(db, user, access, parse(updateBody, request.body));
  });

  app.delete<IdParams>('/group/:id/', schema('DestroyGroup'), async (request, reply) => {
    const access = await requireGroup(db, requireUser(request), request.params.id, 'admin');
    await deleteGroup(db, access);
    return reply.code(204).send();
  });

  app.get<IdParams>('/group/:id/members/', schema('ListGroupMembers'), async (request) => {
    const access = await requireGroup(db, requireUser(request), request.params.id, 'read');
    return paginate(request, groupMemberPages(db, access));
  });

  app.post<IdParams>('/group/:id/members/', schema('CreateGroupMember'), async (request, reply) => {
    const access = await requireGroup(db, requireUser(request), request.params.id, 'admin');
    const input = parse(createMemberBody, request.body);
    return reply.code(201).send(await addGroupMember(db, access, input));
  });

  app.patch<MemberParams>(
    '/group/:id/member/:memberId/',
    schema('PartialUpdateGroupMember'),
    async (request) => {
      const user = requireUser(request);
      const access = await requireGroup(db, user, request.params.id, 'read');
      const member = await requireGroupMemberChange(
        db,
        user,
        access,
        request.params.memberId,
        'update',
      );
      return updateGroupMember(db, member, parse(updateMemberBody, request.body));
    },
  );

  app.delete<MemberParams>(
    '/group/:id/member/:memberId/',
    schema('DestroyGroupMember'),
    async (request, reply) => {
      const user = requireUser(request);
      const access = await requireGroup(db, user, request.params.id, 'read');
      const member = await requireGroupMemberChange(
        db,
        user,
        access,
        request.params.memberId,
        'delete',
      );
      await removeGroupMember(db, member);
      return reply.code(204).send();
    },
  );

  app.get<IdParams>('/group/:id/corpora/', schema('ListGroupCorpora'), async (request) => {
    const user = requireUser(request);
    const access = await requireGroup(db, user, request.params.id, 'read');
    return paginate(request, groupProjectPages(db, user, access));
  });
}
