import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import { paginate } from '../pagination';
import {
  MEMBERSHIP_LEVELS,
  createMembership,
  deleteMembership,
  membershipPages,
  requireMembershipChange,
  updateMembership,
} from '../services/memberships';
import {
  createModelMembership,
  deleteModelMembership,
  findModelMembership,
  modelMembershipPages,
  requireModelMembershipChange,
  updateModelMembership,
} from '../services/models/memberships';
import {
  createCorpusGroup,
  deleteCorpusGroup,
  findCorpusGroup,
  requireCorpusGroupChange,
  updateCorpusGroup,
} from '../services/groups/projects';
import { validationError } from '../errors';
import { requireUuid } from '../permissions';
import { parse, uuidSchema } from '../validation';
import { errors, idParams, noContent, pageQuery, paginated } from '../openapi/schemas';

// The integer check first, so a missing or null level reads as such, not as a bad choice.
const level = z.int().pipe(z.literal(MEMBERSHIP_LEVELS));

const createBody = z.object({
  corpus_id: uuidSchema,
  user_email: z.string().trim().pipe(z.email()),
  level,
});

// Enterprise edition: a group, instead of a user, joins the project.
const createGroupBody = z.object({
  corpus_id: uuidSchema,
  group_id: uuidSchema,
  level,
});

const createModelBody = z.object({
  model_id: uuidSchema,
  user_email: z.string().trim().pipe(z.email()),
  level,
});

const updateBody = z.object({ level: level.optional() });

/**
 * Which of a project or a model a new membership joins, and whether a user or (enterprise
 * edition) a group: `corpus_id` unless only `model_id`; a user unless `group_id`.
 */
function membershipTarget(body: unknown, groups: boolean): 'corpus' | 'model' | 'group' {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'corpus';
  const hasModel = 'model_id' in body;
  if (hasModel && 'corpus_id' in body) {
    throw validationError(
      'non_field_errors',
      'A membership is either on a project (corpus_id) or on a model (model_id), not both.',
    );
  }
  if (hasModel) return 'model';
  if (!groups || !('group_id' in body)) return 'corpus';
  if ('user_email' in body) {
    throw validationError(
      'non_field_errors',
      'A membership is either for a user (user_email) or for a group (group_id), not both.',
    );
  }
  return 'group';
}

const userMembership = z.object({
  id: uuidSchema,
  level: z.number().int(),
  created: z.string(),
  user: z.object({ id: uuidSchema, email: z.string(), display_name: z.string() }),
});
/** A group's entry in a project's members (enterprise edition): the group, not a user. */
const groupMembership = z.object({
  id: uuidSchema,
  level: z.number().int(),
  created: z.string(),
  group: z.object({ id: uuidSchema, name: z.string() }),
});
const membership = z.union([userMembership, groupMembership]);
const schemas = {
  ListCorpusMemberships: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(membership), ...errors(401, 403, 404) },
  },
  ListModelMemberships: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(userMembership), ...errors(401, 403, 404) },
  },
  CreateMembership: {
    // On a project (`corpus_id`) or on a model (`model_id`); for a user or a group.
    body: z.union([createBody, createGroupBody, createModelBody]),
    response: { 201: membership, ...errors(400, 401, 403, 409) },
  },
  PartialUpdateMembership: {
    params: idParams,
    body: updateBody,
    response: { 200: membership, ...errors(400, 401, 403, 404) },
  },
  DestroyMembership: {
    params: idParams,
    response: { 204: noContent, ...errors(400, 401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags: ['users'], ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

/**
 * ListCorpusMemberships, ListModelMemberships, CreateMembership, PartialUpdateMembership,
 * DestroyMembership. A membership id names a project's or a model's membership alike, or a
 * group's place in a project (enterprise edition: `corpus_groups`, listed among the members).
 */
export async function membershipRoutes(app: FastifyInstance): Promise<void> {
  app.get<IdParams>('/corpus/:id/memberships/', schema('ListCorpusMemberships'), async (request) =>
    paginate(request, await membershipPages(app.db, request.user, request.params.id)),
  );

  app.get<IdParams>('/model/:id/memberships/', schema('ListModelMemberships'), async (request) =>
    paginate(request, await modelMembershipPages(app.db, request.user, request.params.id)),
  );

  app.post('/memberships/', schema('CreateMembership'), async (request, reply) => {
    const user = requireUser(request);
    const target = membershipTarget(request.body, app.config.features.enterprise);
    if (target === 'model') {
      const input = parse(createModelBody, request.body);
      return reply.code(201).send(await createModelMembership(app.db, user, input));
    }
    if (target === 'group') {
      const input = parse(createGroupBody, request.body);
      return reply.code(201).send(await createCorpusGroup(app.db, user, input));
    }
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createMembership(app.db, user, input));
  });

  app.patch<IdParams>('/membership/:id/', schema('PartialUpdateMembership'), async (request) => {
    const user = requireUser(request);
    const onModel = await findModelMembership(app.db, requireUuid(request.params.id));
    if (onModel) {
      await requireModelMembershipChange(app.db, user, onModel, 'update');
      return updateModelMembership(app.db, onModel, parse(updateBody, request.body));
    }
    const ofGroup = await findCorpusGroup(app.db, requireUuid(request.params.id));
    if (ofGroup) {
      await requireCorpusGroupChange(app.db, user, ofGroup, 'update');
      return updateCorpusGroup(app.db, ofGroup, parse(updateBody, request.body));
    }
    const membership = await requireMembershipChange(app.db, user, request.params.id, 'update');
    return updateMembership(app.db, membership, parse(updateBody, request.body));
  });

  app.delete<IdParams>('/membership/:id/', schema('DestroyMembership'), async (request, reply) => {
    const user = requireUser(request);
    const onModel = await findModelMembership(app.db, requireUuid(request.params.id));
    if (onModel) {
      await requireModelMembershipChange(app.db, user, onModel, 'delete');
      await deleteModelMembership(app.db, onModel);
      return reply.code(204).send();
    }
    const ofGroup = await findCorpusGroup(app.db, requireUuid(request.params.id));
    if (ofGroup) {
      await deleteCorpusGroup(
        app.db,
        await requireCorpusGroupChange(app.db, user, ofGroup, 'delete'),
      );
      return reply.code(204).send();
    }
    await deleteMembership(
      app.db,
      await requireMembershipChange(app.db, user, request.params.id, 'delete'),
    );
    return reply.code(204).send();
  });
}
