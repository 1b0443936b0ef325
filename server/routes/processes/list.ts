/**
 * ListProcesses (GET /process/): newest first, the processes of projects the caller reads and
 * their own local process, filtered by project, mode, state, name, creator and start.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { countRows, paginate } from '../../pagination';
import { projectLimit, readableCorpusIds } from '../../permissions';
import { parse, queryBoolean, uuidSchema } from '../../validation';
import { listedProcesses, processListItemJson } from '../../services/processes/json';
import { PROCESS_MODES, PROCESS_STATES } from '../../services/processes/state';
import { errors, pageQuery, paginated } from '../../openapi/schemas';
import { processSchema } from './schemas';
import { processListItem } from '../../openapi/process';

const listQuery = z.object({
  corpus: uuidSchema.optional(),
  mode: z.enum(PROCESS_MODES).optional(),
  state: z.enum(PROCESS_STATES).optional(),
  name: z.string().optional(),
  created: queryBoolean.optional(),
  started: queryBoolean.optional(),
  with_tasks: z.unknown().optional(),
});

export async function processListRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get(
    '/process/',
    processSchema('ListProcesses', {
      'x-paginated': true,
      querystring: pageQuery.extend(listQuery.shape),
      response: { 200: paginated(processListItem), ...errors(400, 401, 403) },
    }),
    async (request) => {
      const user = requireUser(request);
      const query = parse(listQuery, request.query);
      const visible = () => {
        let rows = listedProcesses(db).where((eb) =>
          eb.or([
            eb('processes.corpus_id', 'in', readableCorpusIds(db, user)),
            // A task token reaches its project only, never a person's local process.
            ...(projectLimit(user)
              ? []
              : [
                  eb.and([
                    eb('processes.corpus_id', 'is', null),
                    eb('processes.creator_id', '=', user.id),
                  ]),
                ]),
          ]),
        );
        if (query.corpus) rows = rows.where('processes.corpus_id', '=', query.corpus.toLowerCase());
        if (query.mode) rows = rows.where('processes.mode', '=', query.mode);
        if (query.state) rows = rows.where('processes.state', '=', query.state);
        if (query.name) {
          const pattern = `%${query.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          rows = rows.where(sql<SqlBool>`lower(processes.name) like ${pattern} escape '\\'`);
        }
        if (query.created) rows = rows.where('processes.creator_id', '=', user.id);
        if (query.started) rows = rows.where('processes.started', 'is not', null);
        return rows;
      };
      const page = await paginate(
        request,
        {
          count: () => countRows(visible()),
          fetch: ({ limit, offset }) =>
            visible()
              .orderBy('processes.created', 'desc')
              .orderBy('processes.id', 'desc')
              .limit(limit)
              .offset(offset)
              .execute(),
        },
        { maxPageSize: 500 },
      );
      return { ...page, results: page.results.map(processListItemJson) };
    },
  );
}
