import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import { idempotencyPlugin } from './idempotency';
import { manifestMediaType } from './manifestMediaType';
import { corsPlugin } from './cors';
import { compressionPlugin } from './compression';
import { apiCacheControl, recordRoutes, type ApiRoute } from './cacheControl';
import { openDatabase, type Db, type Dialect } from './db';
import { migrateToLatest } from './db/migrate';
import { ApiError, notFound } from './errors';
import { methodNotAllowed, refusalOptions, sendError, structuredRefusals } from './refusals';
import { authPlugin } from './auth/plugin';
import { createMailer, type Mailer } from './mail';
import { getSecretKey } from './services/settings';
import { serverInfoRoutes } from './routes/serverInfo';
import { userRoutes } from './routes/users';
import { corpusRoutes } from './routes/corpora';
import { elementTypeRoutes } from './routes/elementTypes';
import { membershipRoutes } from './routes/memberships';
import { iiifRoutes, imageApiRoutes } from './routes/iiif';
import { elementRoutes } from './routes/elements';
import { jobRoutes } from './routes/jobs';
import { processFileRoutes } from './routes/processFiles';
import { classificationRoutes } from './routes/classifications';
import { metadataRoutes } from './routes/metadata';
import { transcriptionRoutes } from './routes/transcriptions';
import { entityTypeRoutes } from './routes/entityTypes';
import { workerRunRoutes } from './routes/workerRuns';
import { workerRoutes } from './routes/workers/workers';
import { workerVersionRoutes } from './routes/workers/versions';
import { corpusWorkerVersionRoutes } from './routes/workers/corpusVersions';
import { workerConfigurationRoutes } from './routes/workers/configurations';
import { workerActivityRoutes } from './routes/workers/activities';
import { localWorkerRunRoutes } from './routes/workers/localRuns';
import { selectionRoutes } from './routes/selection';
import { adminRoutes } from './routes/admin';
import { modelsRoutes } from './routes/models';
import { workerResultRoutes } from './routes/workerResults';
import { processRoutes } from './routes/processes/index';
import { taskRoutes } from './routes/tasks/index';
import { agentRoutes } from './routes/agents/index';
import { elementChildrenRoutes } from './routes/elementChildren';
import { datasetsRoutes } from './routes/datasets/index';
import { searchRoutes } from './routes/search/search';
import { exportsRoutes } from './routes/exports/index';
import { secretRoutes } from './routes/secrets/index';
import { groupRoutes } from './routes/groups/index';
import { budgetRoutes } from './routes/budgets/index';
import { publishBuiltinWorkers } from './services/workers/builtinWorkers';
import { createJobRunner, type JobRunner } from './jobs/runner';
import { settleStoredArchives } from './services/models/archives';
import { searchReindexRoutes } from './routes/search/reindex';
import { createSearchFollower } from './services/search/follower';
import { openApiPlugin } from './openapi/plugin';
import { openApiRoutes } from './openapi/routes';
import { recordApiResponses, type RecordedResponse } from './openapi/recorder';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: Dialect;
    mailer: Mailer;
    secretKey: string;
    jobs: JobRunner;
    /** Every route under the API prefix, in the order registered. */
    apiRoutes: ApiRoute[];
  }
}

export const API_PREFIX = '/api/v1';
const BODY_LIMIT = 10 * 1024 * 1024;

export interface BuildOptions {
  /** Replace the mailer (tests capture messages this way). */
  mailer?: Mailer;
  /**
   * Run queued jobs in the background once the server listens (default true). Apps that never
   * listen (tests, the CLI) never start the loop and run jobs with app.jobs.drain().
   */
  startJobs?: boolean;
  /** Told of every API answer (tests check them against the OpenAPI document). */
  onApiResponse?: (response: RecordedResponse) => void;
}

/** Builds the whole server: database (migrated), auth, API routes, and the built PWA. */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const https =
    config.tlsCert && config.tlsKey
      ? { cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey) }
      : null;
  const app = Fastify({
    // Without the request log, a failure of the server's own (a 500) is still written down.
    logger: { level: config.logger ? 'info' : 'error' },
    bodyLimit: BODY_LIMIT,
    ...refusalOptions,
    ...(https ? { https } : {}),
  }) as unknown as FastifyInstance;
  structuredRefusals(app);

  const handle = await openDatabase(config);
  await migrateToLatest(
    handle.db as never,
    handle.dialect === 'postgres' ? config.databaseSchema : null,
  );
  app.decorate('config', config);
  app.decorate('db', handle.db);
  app.decorate('dialect', handle.dialect);
  app.decorate('secretKey', await getSecretKey(handle.db));
  app.decorate(
    'mailer',
    options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        dataDir: config.dataDir,
        log: (line) => app.log.info(line),
      }),
  );
  app.addHook('onClose', async () => handle.close());

  app.decorate('jobs', createJobRunner(app));
  if (options.startJobs !== false) app.addHook('onListen', async () => app.jobs.start());
  // A model archive a stopped server was giving its final name is settled before anyone reads it.
  if (options.startJobs !== false)
    app.addHook('onReady', async () => settleStoredArchives(app.db, config.dataDir));
  app.addHook('onReady', async () => publishBuiltinWorkers(app.db));
  // preClose runs before the onClose hooks, so running jobs end while the database is open.
  app.addHook('preClose', async () => app.jobs.stop());
  // The search index follows writes in the background, from the same start to the same close.
  const searchFollower = createSearchFollower(handle, app.log);
  if (options.startJobs !== false) app.addHook('onListen', async () => searchFollower.start());
  app.addHook('preClose', async () => searchFollower.stop());

  // Our own JSON parser: a malformed body is a client mistake with a structured 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        new ApiError(400, 'client_error', [
          {
            code: 'parse_error',
            detail: `JSON parse error - ${(error as Error).message}`,
            attr: null,
          },
        ]) as unknown as FastifyError,
        undefined,
      );
    }
  });

  await app.register(fastifyCookie);
  // Before every route: it hooks each one as it is registered.
  await compressionPlugin(app, API_PREFIX);
  // Before authentication, which would refuse a preflight's missing credentials.
  corsPlugin(app, config.corsOrigins);
  await authPlugin(app, { secure: !!https });

  apiCacheControl(app, API_PREFIX);
  manifestMediaType(app, API_PREFIX);
  // Before the routes: the OpenAPI document is collected from them as they are registered.
  await openApiPlugin(app, API_PREFIX);
  if (options.onApiResponse) recordApiResponses(app, API_PREFIX, options.onApiResponse);
  app.decorate('apiRoutes', [] as ApiRoute[]);
  await app.register(
    async (api) => {
      // Before the routes, so their hooks wrap every one of them.
      recordRoutes(api, app.apiRoutes);
      idempotencyPlugin(api);
      await api.register(serverInfoRoutes);
      await api.register(userRoutes);
      await api.register(corpusRoutes);
      await api.register(elementTypeRoutes);
      await api.register(membershipRoutes);
      await api.register(imageApiRoutes);
      await api.register(elementRoutes);
      await api.register(jobRoutes);
      await api.register(processFileRoutes);
      await api.register(classificationRoutes);
      await api.register(metadataRoutes);
      await api.register(transcriptionRoutes);
      await api.register(entityTypeRoutes);
      await api.register(workerRunRoutes);
      await api.register(workerRoutes);
      await api.register(workerVersionRoutes);
      await api.register(corpusWorkerVersionRoutes);
      await api.register(workerConfigurationRoutes);
      await api.register(workerActivityRoutes);
      await api.register(localWorkerRunRoutes);
      await api.register(selectionRoutes);
      await api.register(adminRoutes);
      await api.register(modelsRoutes);
      await api.register(workerResultRoutes);
      await api.register(processRoutes);
      await api.register(taskRoutes);
      await api.register(agentRoutes);
      await api.register(elementChildrenRoutes);
      await api.register(datasetsRoutes);
      await api.register(searchRoutes);
      await api.register(searchReindexRoutes);
      await api.register(exportsRoutes);
      await api.register(secretRoutes);
      await api.register(groupRoutes);
      await api.register(budgetRoutes);
      await api.register(openApiRoutes);
    },
    { prefix: API_PREFIX },
  );
  // IIIF image URLs are /iiif/{id}/…, outside the API prefix.
  await app.register(iiifRoutes);

  const indexHtml = path.join(config.distDir, 'index.html');
  const hasBuild = fs.existsSync(indexHtml);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: config.distDir,
      wildcard: false,
      index: false,
      // The .br and .gz copies made at build time (server/precompress.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        const name = path.basename(filePath);
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          // sw.js, the manifest and index.html must be revalidated so updates are seen.
          res.header('cache-control', name === 'sw.js' ? 'no-cache, no-store' : 'no-cache');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/')) {
      return sendError(methodNotAllowed(app, request) ?? notFound(), request, reply);
    }
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (hasBuild && wantsPage && !/\.[a-z0-9]+$/i.test(url)) {
      // Client-side routes: the app shell answers and the router shows the page.
      // sendFile: its brotli or gzip copy when the browser takes one (setHeaders: no-cache).
      return reply.sendFile('index.html');
    }
    return reply.status(404).send(notFound().body());
  });

  return app;
}
