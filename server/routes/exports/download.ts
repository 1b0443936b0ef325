/**
 * DownloadExport: GET /export/{id}/ streams a done export's SQLite file to whoever may read its
 * project (guests, anyone on a public project, a task of a process of that project).
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, notFound } from '../../errors';
import { errors, idParams } from '../../openapi/schemas';
import { findCorpusAccess, requireUuid } from '../../permissions';
import { EXPORT_MESSAGES, exportFilePath, findExport } from '../../services/exports/exports';
import { attachmentHeader } from '../../services/datasets/csv';

type IdParams = { Params: { id: string } };

const downloadSchema = {
  operationId: 'DownloadExport',
  tags: ['export'],
  params: idParams,
  response: {
    200: {
      description: 'The SQLite database of the export, as an attachment',
      content: { 'application/x-sqlite3': { schema: z.string().meta({ format: 'binary' }) } },
    },
    ...errors(400, 401, 403, 404),
  },
};

/** `<project name>-<date made>.sqlite`; attachmentHeader keeps its ASCII form safe. */
export function exportFileName(projectName: string, created: string): string {
  return `${projectName}-${created.slice(0, 10)}.sqlite`;
}

export async function exportDownloadRoutes(app: FastifyInstance): Promise<void> {
  app.get<IdParams>('/export/:id/', { schema: downloadSchema }, async (request, reply) => {
    const row = await findExport(app.db, requireUuid(request.params.id));
    const access = row ? await findCorpusAccess(app.db, request.user ?? null, row.corpus_id) : null;
    if (!row || !access) throw notFound();
    if (row.state !== 'done') throw badRequest(EXPORT_MESSAGES.notDone);
    const file = exportFilePath(app.config.dataDir, row.id);
    let size: number;
    try {
      size = (await fs.promises.stat(file)).size;
    } catch {
      // Removed by hand, or swept between the lookup and here.
      throw notFound();
    }
    return reply
      .header('content-type', 'application/x-sqlite3')
      .header('content-length', String(size))
      .header(
        'content-disposition',
        attachmentHeader(exportFileName(access.corpus.name, row.created)),
      )
      .send(fs.createReadStream(file));
  });
}
