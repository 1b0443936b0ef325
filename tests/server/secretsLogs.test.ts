/**
 * A secret's value in no log line and no file: a real server process with its request log on
 * (FOLIA_LOG=1) is sent values to store, reveal, refuse and delete, then its whole output and
 * its data dir are searched for them.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestUser, makeTestApp, type TestApp } from './harness';

const ENTERPRISE = { FOLIA_FEATURES: 'enterprise', FOLIA_SECRET_KEY: '5c'.repeat(32) };
const VALUES = ['log-probe-5ecret-one-1f8e2c', 'log-probe-5ecret-two-7a9d04'];

interface Running {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** tests/server/childServer.ts on the test app's database, every line it prints kept. */
async function startLoggingServer(test: TestApp): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/server/childServer.ts'], {
    env: { ...process.env, FOLIA_TEST_CONFIG: JSON.stringify({ ...test.config, logger: true }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no server after 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening (\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/api/v1/`,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).flatMap((entry) => {
    const file = path.join(folder, entry);
    return fs.statSync(file).isFile() ? [file] : [];
  });
}

for (const dialect of DIALECTS) {
  describe(`Secret values in logs and files [${dialect}]`, () => {
    let test: TestApp;
    let server: Running;
    beforeAll(async () => {
      test = await makeTestApp(dialect, ENTERPRISE);
    });
    afterAll(async () => {
      await server?.stop();
      await test?.close();
    });

    it('appear in no line the server logs and no file of its data dir', async () => {
      const admin = await createTestUser(test.app, { admin: true });
      server = await startLoggingServer(test);
      const call = (method: string, url: string, body?: unknown) =>
        fetch(`${server.url}${url}`, {
          method,
          headers: {
            authorization: `Token ${admin.token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const [one, two] = VALUES as [string, string];
      expect((await call('POST', 'secrets/', { name: 'probe/one', content: one })).status).toBe(
        201,
      );
      expect((await call('POST', 'secrets/', { name: 'probe/two', content: two })).status).toBe(
        201,
      );
      expect(await (await call('GET', 'secret/probe/one')).json()).toMatchObject({
        content: one,
      });
      // Refusals with a value in the body: a taken name, a bad name, a body that is not JSON.
      expect((await call('POST', 'secrets/', { name: 'probe/one', content: two })).status).toBe(
        400,
      );
      expect((await call('POST', 'secrets/', { name: 'probe//x', content: two })).status).toBe(400);
      const broken = await fetch(`${server.url}secrets/`, {
        method: 'POST',
        headers: { authorization: `Token ${admin.token}`, 'content-type': 'application/json' },
        body: `{"name": "probe/three", "content": "${one}`,
      });
      expect(broken.status).toBe(400);
      expect(await broken.text()).not.toContain(one);
      expect((await call('DELETE', 'secret/probe/two')).status).toBe(204);
      await server.stop();

      const output = server.output();
      // The request log was on and saw these calls.
      expect(output).toContain('/api/v1/secret/probe/one');
      for (const value of VALUES) expect(output).not.toContain(value);
      for (const file of filesUnder(test.config.dataDir)) {
        const bytes = fs.readFileSync(file);
        for (const value of VALUES) {
          expect(bytes.includes(Buffer.from(value)), `${file} holds a secret`).toBe(false);
        }
      }
    });
  });
}
