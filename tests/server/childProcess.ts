/** Starts tests/server/childServer.ts as a real process and waits until it listens. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../server/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Resolves once the process is gone. */
  exited: Promise<void>;
}

export async function startChildServer(config: Config): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/server/childServer.ts'], {
    cwd: root,
    env: { ...process.env, FOLIA_TEST_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
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
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    });
  });
  return { process: child, url: `http://127.0.0.1:${port}`, exited };
}

/** Kills the server the hard way (SIGKILL: no shutdown code runs), unless it is already gone. */
export async function killChildServer(server: ChildServer): Promise<void> {
  if (server.process.exitCode === null && server.process.signalCode === null) {
    server.process.kill('SIGKILL');
  }
  await server.exited;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads every 5 ms until `read` gives something, for a killed server's job to get somewhere. */
export async function until<T>(
  what: string,
  read: () => Promise<T | null>,
  ms = 60_000,
): Promise<T> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await pause(5)) {
    const value = await read();
    if (value !== null) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}
