import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Loads playwright.config.ts as Playwright would, in a process of its own, with no pins set. */
function loadE2eConfig(): { baseURL: string; dataDir: string } {
  const env = { ...process.env };
  delete env.FOLIA_E2E_PORT;
  delete env.FOLIA_E2E_DATA_DIR;
  const out = execFileSync(
    path.join('node_modules', '.bin', 'tsx'),
    [
      '-e',
      "import('./playwright.config.ts').then((m) => { const c = m.default.default ?? m.default; console.log(JSON.stringify({ baseURL: c.use.baseURL, dataDir: c.webServer.env.FOLIA_DATA_DIR })); })",
    ],
    { env, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as { baseURL: string; dataDir: string };
}

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('each e2e run serves on a place of its own', () => {
  let squatter: net.Server | null = null;
  // A server left over from an earlier run on the old fixed port.
  beforeAll(async () => {
    squatter = await listen(8765).catch(() => null);
  });
  afterAll(() => squatter?.close());

  it('picks a free port and a fresh data folder per run', async () => {
    const first = loadE2eConfig();
    const second = loadE2eConfig();
    expect(first.dataDir).not.toBe(second.dataDir);
    for (const run of [first, second]) {
      const port = Number(new URL(run.baseURL).port);
      expect(port).not.toBe(8765);
      const server = await listen(port); // free: a run can serve there
      server.close();
      fs.rmSync(run.dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
