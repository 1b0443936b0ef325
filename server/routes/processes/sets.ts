/**
 * The dataset sets of a dataset process (api part 2 §5): ListProcessSets for whoever reads the
 * process (its workers' task tokens too), CreateProcessSet and DestroyProcessSet for the
 * project's admins before the start. Rules live in services/processes/sets.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { paginate } from '../../pagination';
import { requireProcess } from '../../services/processes/rights';
import { addProcessSet, processSetPages, removeProcessSet } from '../../services/processes/sets';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';
import { processSchema, processSet } from './schemas';

type IdParams = { Params: { id: string } };
const setParams = z.object({ id: z.uuid(), setId: z.uuid() });
type SetParams = { Params: { id: string; setId: string } };

export async function processSetRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/process/:id/sets/',
    processSchema('ListProcessSets', {
      'x-paginated': true,
      params: idParams,
      querystring: pageQuery,
      response: { 200: paginated(processSet), ...errors(401, 403, 404) },
    }),
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      return paginate(request, processSetPages(db, process.id));
    },
  );

  app.post<SetParams>(
    '/process/:id/set/:setId/',
    processSchema('CreateProcessSet', {
      params: setParams,
      response: { 201: processSet, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      return reply.code(201).send(await addProcessSet(db, process, request.params.setId));
    },
  );

  app.delete<SetParams>(
    '/process/:id/set/:setId/',
    processSchema('DestroyProcessSet', {
      params: setParams,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await removeProcessSet(db, process, request.params.setId);
      return reply.code(204).send();
    },
  );
}
