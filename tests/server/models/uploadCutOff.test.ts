/**
 * Uploads over a real socket, as light-my-request cannot cut a request off halfway: the server
 * must then mark the version in error and keep no file, partial or whole.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../harness';
import { makeThrowawayApp, type ThrowawayApp } from '../throwawayApp';
import { clientAs, makeModel, makeModelCast, makeVersion, type ModelCast } from './fixtures';

/** Sends the head and `sent` bytes of a body announced as `announced` bytes, then hangs up. */
function cutOffUpload(port: number, url: string, token: string, announced: number, sent: number) {
  return new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `PUT ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Token ${token}\r\n` +
          `Content-Type: application/zstd\r\nContent-Length: ${announced}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(sent, 7), () => {
        // Give the server time to read the first half before the connection drops.
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
    });
    socket.on('error', reject);
  });
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return read();
}

for (const dialect of DIALECTS) {
  describe(`model archive upload over a socket [${dialect}]`, () => {
    let server: ThrowawayApp;
    let cast: ModelCast;
    let port: number;
    let modelId: string;

    beforeAll(async () => {
      server = await makeThrowawayApp(dialect, { label: 'upload', build: { startJobs: false } });
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      port = (server.app.server.address() as net.AddressInfo).port;
      cast = await makeModelCast(server.app);
      modelId = await makeModel(server.app, cast);
    });

    afterAll(async () => {
      await server?.close();
    });

    const stateOf = async (id: string) =>
      (await clientAs(server.app, cast, 'owner').get(`modelversion/${id}/`)).json();
    const leftovers = (id: string) => {
      const dir = path.join(server.config.dataDir, 'models');
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.startsWith(id)) : [];
    };

    it('leaves a version cut off halfway in error, without any file', async () => {
      const id = await makeVersion(server.app, cast, modelId, { tag: 'cut' });
      await cutOffUpload(
        port,
        `/api/v1/modelversion/${id}/upload/`,
        cast.owner.token,
        200_000,
        100_000,
      );
      const version = await waitFor(
        () => stateOf(id),
        (v) => v.state !== 'created',
      );
      expect(version).toMatchObject({ state: 'error', size: null, hash: null, s3_url: null });
      expect(leftovers(id)).toEqual([]);
      const download = await clientAs(server.app, cast, 'owner').get(
        `modelversion/${id}/download/`,
      );
      expect(download.statusCode).toBe(404);
    });

    it('stores a whole upload sent over the socket', async () => {
      const id = await makeVersion(server.app, cast, modelId, { tag: 'whole' });
      const body = Buffer.alloc(300_000, 3);
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/modelversion/${id}/upload/`, {
        method: 'PUT',
        headers: { authorization: `Token ${cast.owner.token}`, 'content-type': 'application/zstd' },
        body,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ state: 'available', size: body.length });
      expect(leftovers(id)).toEqual([id]);
      expect(fs.readFileSync(path.join(server.config.dataDir, 'models', id)).equals(body)).toBe(
        true,
      );
    });
  });
}
