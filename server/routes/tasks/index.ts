/**
 * Tasks as users see them: retrieve, stop, restart, logs, artifacts.
 * Rights come from permissions.ts before any body is read; rules live in services/tasks/.
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { notFound } from '../../errors';
import { parse } from '../../validation';
import { requireTaskRight } from '../../services/tasks/access';
import { taskJson } from '../../services/tasks/json';
import { restartTask, stopTask } from '../../services/tasks/transitions';
import { artifactFilePath, findArtifact, listArtifacts } from '../../services/tasks/artifacts';

const updateBody = z.object({ state: z.enum(['stopping']) });

/** A Content-Disposition any name fits in: an ASCII fallback, and the name itself in UTF-8. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

type IdParams = { Params: { id: string } };
type ArtifactParams = { Params: { id: string; '*': string } };

export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/task/:id/',
    { schema: { operationId: 'RetrieveTask', tags: ['ponos'] } },
    async (request) => {
      const task = await requireTaskRight(db, request.user, request.params.id, 'read');
      return taskJson(db, task, { logs: true });
    },
  );

  app.get<IdParams>(
    '/task/:id/logs/',
    { schema: { operationId: 'RetrieveTaskLog', tags: ['ponos'] } },
    async (request, reply) => {
      const task = await requireTaskRight(db, request.user, request.params.id, 'read');
      return reply.type('text/plain; charset=utf-8').send(task.logs);
    },
  );

  app.patch<IdParams>(
    '/task/:id/',
    { schema: { operationId: 'PartialUpdateTask', tags: ['ponos'] } },
    async (request) => {
      const user = requireUser(request);
      const task = await requireTaskRight(db, user, request.params.id, 'admin');
      parse(updateBody, request.body);
      await stopTask(db, task.id);
      const updated = await db
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', task.id)
        .executeTakeFirstOrThrow();
      return taskJson(db, updated);
    },
  );

  app.post<IdParams>(
    '/task/:id/restart/',
    { schema: { operationId: 'RestartTask', tags: ['ponos'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const task = await requireTaskRight(db, user, request.params.id, 'admin');
      const created = await restartTask(db, task.id);
      return reply.code(201).send(await taskJson(db, created));
    },
  );

  app.get<IdParams>(
    '/task/:id/artifacts/',
    { schema: { operationId: 'ListArtifacts', tags: ['ponos'] } },
    async (request) => {
      const task = await requireTaskRight(db, request.user, request.params.id, 'read');
      return listArtifacts(db, task.id);
    },
  );

  app.get<ArtifactParams>(
    '/task/:id/artifact/*',
    { schema: { operationId: 'DownloadArtifact', tags: ['ponos'] } },
    async (request, reply) => {
      const task = await requireTaskRight(db, request.user, request.params.id, 'read');
      const artifact = await findArtifact(db, task.id, request.params['*']);
      if (!artifact) throw notFound();
      const file = artifactFilePath(app.config.dataDir, task.id, artifact.path);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat) throw notFound();
      const name = artifact.path.split('/').pop() ?? 'artifact';
      return (
        reply
          .type(artifact.content_type)
          .header('content-length', stat.size)
          // Downloaded, never shown inline: an HTML artifact must not run as a page of this site.
          .header('content-disposition', attachment(name))
          .header('x-content-type-options', 'nosniff')
          .send(fs.createReadStream(file))
      );
    },
  );
}
