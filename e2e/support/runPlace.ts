import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where one e2e run serves: a port free right now and a data folder of its own. Chosen once in
 * Playwright's main process and handed to its workers (and the web server) through the
 * environment, so a second run on the same machine, or a server left over from an interrupted
 * run, never shares them. FOLIA_E2E_PORT / FOLIA_E2E_DATA_DIR still pin them when set.
 */
export function e2eRunPlace(env: NodeJS.ProcessEnv = process.env): {
  port: number;
  dataDir: string;
} {
  if (!env.FOLIA_E2E_PORT) env.FOLIA_E2E_PORT = String(freePort());
  if (!env.FOLIA_E2E_DATA_DIR)
    env.FOLIA_E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-e2e-'));
  return { port: Number(env.FOLIA_E2E_PORT), dataDir: env.FOLIA_E2E_DATA_DIR };
}

/** A port the system hands out as free (asked synchronously: Playwright's config is not async). */
function freePort(): number {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
    ],
    { encoding: 'utf8' },
  );
  const port = Number(probe.stdout);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`No free port: ${probe.stderr}`);
  return port;
}
