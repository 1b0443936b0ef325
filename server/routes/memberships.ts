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
import { parse, uuidSchema } from '../validation';

// The integer check first, so a missing or null level reads as such, not as a bad choice.
const level = z.int().pipe(z.literal(MEMBERSHIP_LEVELS));

const createBody = z.object({
  corpus_id: uuidSchema,
  user_email: z.string().trim().pipe(z.email()),
  level,
});

const updateBody = z.object({ level: level.optional() });

type IdParams = { Params: { id: string } };

/** ListCorpusMemberships, CreateMembership, PartialUpdateMembership, DestroyMembership. */
export async function membershipRoutes(app: FastifyInstance): Promise<void> {
  app.get<IdParams>('/corpus/:id/memberships/', async (request) =>
    paginate(request, await membershipPages(app.db, request.user, request.params.id)),
  );

  app.post('/memberships/', async (request, reply) => {
    const user = requireUser(request);
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createMembership(app.db, user, input));
  });

  app.patch<IdParams>('/membership/:id/', async (request) => {
    const user = requireUser(request);
    const membership = await requireMembershipChange(app.db, user, request.params.id, 'update');
    return updateMembership(app.db, membership, parse(updateBody, request.body));
  });

  app.delete<IdParams>('/membership/:id/', async (request, reply) => {
    const user = requireUser(request);
    await deleteMembership(
      app.db,
      await requireMembershipChange(app.db, user, request.params.id, 'delete'),
    );
    return reply.code(204).send();
  });
}
