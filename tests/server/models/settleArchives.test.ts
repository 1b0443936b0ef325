/**
 * A server stopped while an upload was giving its archive its final name leaves the version
 * `processing`; the next start settles it from the disk, so no version is available without its
 * whole archive and none stays processing for ever.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { DIALECTS } from '../harness';
import { makeThrowawayApp, type ThrowawayApp } from '../throwawayApp';
import { clientAs, makeModel, makeModelCast, makeVersion, type ModelCast } from './fixtures';

for (const dialect of DIALECTS) {
  describe(`model archives left processing by a stopped server [${dialect}]`, () => {
    let server: ThrowawayApp;
    let restarted: FastifyInstance;
    let cast: ModelCast;
    const ids: Record<'whole' | 'missing' | 'short', string> = {
      whole: '',
      missing: '',
      short: '',
    };

    beforeAll(async () => {
      server = await makeThrowawayApp(dialect, { label: 'settle', build: { startJobs: false } });
      cast = await makeModelCast(server.app);
      const modelId = await makeModel(server.app, cast);
      for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
        ids[key] = await makeVersion(
          server.app,
          cast,
          modelId,
          { tag: key },
          Buffer.alloc(1000, 1),
        );
      }
      const dir = path.join(server.config.dataDir, 'models');
      fs.rmSync(path.join(dir, ids.missing));
      fs.truncateSync(path.join(dir, ids.short), 400);
      // As a server killed between an upload's claim and the end of its rename leaves them.
      await server.app.db
        .updateTable('model_versions')
        .set({ state: 'processing' })
        .where('id', 'in', Object.values(ids))
        .execute();
      // The server starting again, on the same database and data folder.
      restarted = await buildApp(server.config);
      await restarted.ready();
    });

    afterAll(async () => {
      await restarted?.close();
      await server?.close();
    });

    const read = async (id: string) =>
      (await clientAs(restarted, cast, 'owner').get(`modelversion/${id}/`)).json();

    it('makes a version whose whole archive has its final name available', async () => {
      expect(await read(ids.whole)).toMatchObject({ state: 'available', size: 1000 });
      const download = await clientAs(restarted, cast, 'owner').get(
        `modelversion/${ids.whole}/download/`,
      );
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.length).toBe(1000);
    });

    it('puts a version without its archive, or with part of it, in error and keeps no file', async () => {
      for (const id of [ids.missing, ids.short]) {
        const version = await read(id);
        expect(version).toMatchObject({ state: 'error', size: null, hash: null, s3_url: null });
        expect(version.s3_put_url).toMatch(new RegExp(`/modelversion/${id}/upload/$`));
        expect(fs.existsSync(path.join(server.config.dataDir, 'models', id))).toBe(false);
      }
    });
  });
}
