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
import { errors, idParams } from '../../openapi/schemas';
import { artifact, task as taskObject } from '../../openapi/process';

const updateBody = z.object({ state: z.enum(['stopping']) });

/** A Content-Disposition any name fits in: an ASCII fallback, and the name itself in UTF-8. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const tags = ['ponos'];
const schemas = {
  RetrieveTask: {
    params: idParams,
    response: { 200: taskObject, ...errors(401, 403, 404) },
  },
  RetrieveTaskLog: {
    params: idParams,
    response: {
      200: {
        description: "The task's output, its last MiB",
        content: { 'text/plain': { schema: z.string() } },
      },
      ...errors(401, 403, 404),
    },
  },
  PartialUpdateTask: {
    params: idParams,
    body: updateBody,
    response: { 200: taskObject, ...errors(400, 401, 403, 404) },
  },
  RestartTask: {
    params: idParams,
    response: {
      201: taskObject.describe('The new task, a copy of this one'),
      ...errors(400, 401, 403, 404),
    },
  },
  ListArtifacts: {
    params: idParams,
    response: { 200: z.array(artifact), ...errors(401, 403, 404) },
  },
  DownloadArtifact: {
    params: z.object({ id: z.uuid(), '*': z.string().describe("The artifact's path") }),
    response: {
      200: {
        description: 'The file, as an attachment of its own content type',
        content: { '*/*': { schema: z.string().meta({ format: 'binary' }) } },
      },
      ...errors(401, 403, 404),
    },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };
type ArtifactParams = { Params: { id: string; '*': string } };

export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/task/:id/', schema('RetrieveTask'), async (request) => {
    const task = await requireTaskRight(db, request.user, request.params.id, 'read');
    return taskJson(db, task, { logs: true });
  });

  app.get<IdParams>('/task/:id/logs/', schema('RetrieveTaskLog'), async (request, reply) => {
    const task = await requireTaskRight(db, request.user, request.params.id, 'read');
    return reply.type('text/plain; charset=utf-8').send(task.logs);
  });

  app.patch<IdParams>('/task/:id/', schema('PartialUpdateTask'), async (request) => {
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
  });

  app.post<IdParams>('/task/:id/restart/', schema('RestartTask'), async (request, reply) => {
    const user = requireUser(request);
    const task = await requireTaskRight(db, user, request.params.id, 'admin');
    const created = await restartTask(db, task.id);
    return reply.code(201).send(await taskJson(db, created));
  });

  app.get<IdParams>('/task/:id/artifacts/', schema('ListArtifacts'), async (request) => {
    const task = await requireTaskRight(db, request.user, request.params.id, 'read');
    return listArtifacts(db, task.id);
  });

  app.get<ArtifactParams>(
    '/task/:id/artifact/*',
    schema('DownloadArtifact'),
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
