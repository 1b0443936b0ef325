/** GET /datasets/{id}/csv/?set=: a dataset's split (or one set's) as a CSV download. */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requestOrigin } from '../../origin';
import { parse } from '../../validation';
import { requireDataset } from '../../services/datasets/datasets';
import { setByName } from '../../services/datasets/elements';
import { attachmentHeader, csvFileName, datasetCsv } from '../../services/datasets/csv';
import { errors, idParams } from '../../openapi/schemas';
import { datasetSchema } from './schemas';

const csvQuery = z.object({ set: z.string().optional() });

type IdParams = { Params: { id: string } };

export async function datasetCsvRoutes(app: FastifyInstance): Promise<void> {
  app.get<IdParams>(
    '/datasets/:id/csv/',
    datasetSchema('RetrieveDatasetCSV', {
      params: idParams,
      querystring: csvQuery,
      response: {
        200: {
          description: 'One line per element of the dataset or of `set`',
          content: { 'text/csv': { schema: z.string().meta({ format: 'binary' }) } },
        },
        ...errors(401, 403, 404),
      },
    }),
    async (request, reply) => {
      const { dataset } = await requireDataset(
        app.db,
        request.user ?? null,
        request.params.id,
        'read',
      );
      const query = parse(csvQuery.loose(), request.query);
      const set = query.set ? (await setByName(app.db, dataset, query.set)).name : null;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentHeader(csvFileName(dataset, set)))
        .send(Readable.from(datasetCsv(app.db, dataset, set, requestOrigin(request))));
    },
  );
}
