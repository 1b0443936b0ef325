/**
 * A project's exports: ListExports, StartExport, DestroyExport, ListExportSources. The rules
 * live in services/exports/exports.ts; the download is in download.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { nowIso } from '../../clock';
import { badRequest, notFound, permissionDenied } from '../../errors';
import { cancelJob } from '../../jobs/service';
import { requestOrigin } from '../../origin';
import { paginate, countRows } from '../../pagination';
import { findCorpusAccess, requireUuid } from '../../permissions';
import { parse } from '../../validation';
import {
  EXPORT_MESSAGES,
  EXPORT_SOURCES,
  exportFilePath,
  exportJson,
  exportsJson,
  findExport,
  startExport,
} from '../../services/exports/exports';
import fs from 'node:fs/promises';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';

/** The export list's page size (spec 000 §9). */
export const EXPORT_PAGE_SIZE = 10;

const startBody = z.object({ source: z.string().default('default') });

const uuid = z.uuid();
const projectExport = z
  .object({
    id: uuid,
    created: z.string(),
    updated: z.string(),
    corpus_id: uuid,
    user: z.object({ id: uuid, email: z.string(), display_name: z.string() }),
    state: z.enum(['created', 'running', 'done', 'failed']),
    source: z.string(),
  })
  .meta({ id: 'Export' });

const tags = ['export'];
const schemas = {
  ListExports: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(projectExport), ...errors(401, 403, 404) },
  },
  StartExport: {
    params: idParams,
    body: startBody,
    response: { 201: projectExport, ...errors(400, 401, 403, 404) },
  },
  DestroyExport: {
    params: idParams,
    response: { 204: noContent, ...errors(400, 401, 403, 404) },
  },
  ListExportSources: {
    response: {
      200: z.array(z.object({ name: z.enum(EXPORT_SOURCES), last_update: z.string() })),
      ...errors(401),
    },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function projectExportRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/corpus/:id/export/', schema('ListExports'), async (request) => {
    const access = await findCorpusAccess(db, request.user ?? null, request.params.id);
    if (!access) throw notFound();
    const query = db.selectFrom('corpus_exports').where('corpus_id', '=', access.corpus.id);
    const page = await paginate(
      request,
      {
        count: () => countRows(query.select('id')),
        fetch: ({ limit, offset }) =>
          query
            .selectAll()
            .orderBy('created', 'desc')
            .orderBy('id', 'desc')
            .limit(limit)
            .offset(offset)
            .execute(),
      },
      { defaultPageSize: EXPORT_PAGE_SIZE },
    );
    return { ...page, results: await exportsJson(db, page.results) };
  });

  app.post<IdParams>('/corpus/:id/export/', schema('StartExport'), async (request, reply) => {
    const user = requireUser(request);
    requireUuid(request.params.id);
    const body = parse(startBody, request.body);
    const row = await startExport(
      db,
      app.dialect,
      request.params.id,
      user,
      body.source,
      requestOrigin(request),
    );
    return reply.code(201).send(await exportJson(db, row));
  });

  app.delete<IdParams>('/export/:id/', schema('DestroyExport'), async (request, reply) => {
    const user = requireUser(request);
    const row = await findExport(db, requireUuid(request.params.id));
    const access = row ? await findCorpusAccess(db, user, row.corpus_id) : null;
    if (!row || !access) throw notFound();
    if (!access.rights.includes('admin') && row.user_id !== user.id) {
      throw permissionDenied(EXPORT_MESSAGES.deleteDenied);
    }
    if (row.state !== 'done' && row.state !== 'running')
      throw badRequest(EXPORT_MESSAGES.notDeletable);
    // A running export's job is asked to stop; whatever it writes after is thrown away by it,
    // since the row it would end is gone.
    if (row.state === 'running' && row.job_id) await cancelJob(db, row.job_id);
    await db.deleteFrom('corpus_exports').where('id', '=', row.id).execute();
    await fs.rm(exportFilePath(app.config.dataDir, row.id), { force: true });
    return reply.code(204).send();
  });

  app.get('/export-sources/', schema('ListExportSources'), async (request) => {
    requireUser(request);
    // Folia exports from its own database, which is always up to date.
    return EXPORT_SOURCES.map((name) => ({ name, last_update: nowIso() }));
  });
}
