/**
 * UpdateWorkerActivity (api/arkindex-api-2.md §2.7): `PUT /workers/versions/{id}/activity/`,
 * the id being a worker run's (or, from older workers, a worker version's with process_id).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { parse, uuidSchema } from '../../validation';
import { requireUuid } from '../../permissions';
import { errors, idParams } from '../../openapi/schemas';
import { ACTIVITY_STATES, updateActivity } from '../../services/workers/activities';

const body = z.object({
  element_id: uuidSchema,
  process_id: uuidSchema,
  state: z.enum(ACTIVITY_STATES),
});

const activitySchema = {
  operationId: 'UpdateWorkerActivity',
  tags: ['workers'],
  params: idParams,
  body,
  response: {
    200: body.describe("The element's new state for this run"),
    ...errors(400, 401, 403, 404),
    409: errors(409)[409].describe('The element was already started or processed'),
  },
};

type IdParams = { Params: { id: string } };

export async function workerActivityRoutes(app: FastifyInstance): Promise<void> {
  app.put<IdParams>(
    '/workers/versions/:id/activity/',
    { schema: activitySchema },
    async (request) => {
      const user = requireUser(request);
      const id = requireUuid(request.params.id);
      const input = parse(body, request.body);
      return updateActivity(app.db, user, id, input);
    },
  );
}
