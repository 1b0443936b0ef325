/**
 * The task agent: `npm run agent -- --url URL --farm-token TOKEN [--slots N]`. It claims the
 * tasks of its farm over HTTP and runs each as a child process (see loop.ts and run.ts).
 * SIGTERM or SIGINT: stop claiming, let running tasks finish (FOLIA_AGENT_GRACE_S, 30 s), then
 * kill what is left, report it `error` and leave.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from './loop';
import { parseOptions } from './options';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  fs.mkdirSync(options.workDir, { recursive: true });
  const agent = new Agent({
    ...options,
    root,
    pollMs: 1000,
    killGraceMs: 5000,
    log,
  });
  let leaving: Promise<void> | null = null;
  const leave = (why: string) => {
    leaving ??= (async () => {
      log(`${why}: leaving`);
      await agent.shutdown();
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => leave('SIGTERM'));
  process.on('SIGINT', () => leave('SIGINT'));
  // Started by a server (the embedded agent): leave with it.
  if (process.connected) process.on('disconnect', () => leave('the server went away'));
  log(`agent for ${options.url}, work dir ${options.workDir}`);
  await agent.start();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
