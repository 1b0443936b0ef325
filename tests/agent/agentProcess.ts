/**
 * Real agents for the tests: `agent/main.ts` started as a process of its own against a server
 * listening on a port, with a fast heartbeat, its output kept for assertions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AgentProcess {
  process: ChildProcess;
  workDir: string;
  output(): string;
  /** Resolves with the exit code (null after a signal) once the process is gone. */
  exited: Promise<number | null>;
  /** Resolves once the agent said it registered. */
  registered: Promise<void>;
  /** SIGTERM (graceful) unless told otherwise; resolves once it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function startAgent(options: {
  url: string;
  farmToken: string;
  slots?: number;
  hostname?: string;
  env?: Record<string, string>;
}): AgentProcess {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-agent-test-'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'agent/main.ts',
      '--url',
      options.url,
      '--slots',
      String(options.slots ?? 1),
      '--hostname',
      options.hostname ?? 'test-agent',
      '--work-dir',
      workDir,
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        FOLIA_FARM_TOKEN: options.farmToken,
        FOLIA_AGENT_HEARTBEAT_S: '0.2',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const registered = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (/registered as/.test(output)) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(check, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`agent exited before registering:\n${output}`));
    });
  });
  registered.catch(() => undefined);
  return {
    process: child,
    workDir,
    output: () => output,
    exited,
    registered,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Polls until `check` returns a value other than undefined/false, or fails after timeoutMs. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A process is gone once it no longer exists or is a zombie nobody reaped yet. */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
