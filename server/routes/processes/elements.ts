/** ListProcessElements (GET /process/{id}/elements/): cursor pages of the selected elements. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { requestOrigin } from '../../origin';
import { readPageQuery } from '../../pagination';
import { parse, queryBoolean } from '../../validation';
import { processElementPage } from '../../services/processes/elementPage';
import { requireProcess } from '../../services/processes/rights';
import { errors, idParams, pageQuery } from '../../openapi/schemas';
import { elementPageAnswer, processSchema } from './schemas';

type IdParams = { Params: { id: string } };

const elementsQuery = z.object({
  cursor: z.string().optional(),
  with_count: queryBoolean.optional(),
  with_image: queryBoolean.optional(),
});

export async function processElementRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/process/:id/elements/',
    processSchema('ListProcessElements', {
      params: idParams,
      querystring: elementsQuery.extend({ page_size: pageQuery.shape.page_size }),
      response: { 200: elementPageAnswer, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      const query = parse(elementsQuery, request.query);
      const { pageSize } = readPageQuery(
        { page_size: (request.query as Record<string, unknown>)?.page_size },
        { maxPageSize: 500 },
      );
      return processElementPage(db, process, {
        cursor: query.cursor ?? null,
        pageSize,
        withCount: query.with_count ?? false,
        withImage: query.with_image ?? false,
        origin: requestOrigin(request),
        url: new URL(request.url, requestOrigin(request)),
      });
    },
  );
}
