/**
 * The agent `npm start` runs beside the server: a child process (worker code never runs in the
 * server's own process) that registers with the Default farm's token, its output prefixed
 * `[agent]`. It leaves when the server stops, and on its own if the server dies (IPC channel);
 * should it die first, it is started again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Db } from './db';

const RESTART_DELAY_MS = 5000;

export interface EmbeddedAgent {
  /** Asks the agent to leave (running tasks get their grace period) and waits for it. */
  stop(): Promise<void>;
}

const prefixLines = (write: (line: string) => void) => {
  let rest = '';
  return (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) write(`[agent] ${line}`);
  };
};

export async function startEmbeddedAgent(
  db: Db,
  options: { root: string; url: string; dataDir: string; slots: string | undefined },
): Promise<EmbeddedAgent | null> {
  const farm = await db
    .selectFrom('farms')
    .select('token')
    .where('name', '=', 'Default farm')
    .executeTakeFirst();
  if (!farm) {
    console.error('[agent] no "Default farm" in the database: no embedded agent');
    return null;
  }
  const launch = (): ChildProcess => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(options.root, 'agent', 'main.ts'),
        '--url',
        options.url,
        '--work-dir',
        path.join(options.dataDir, 'agent'),
      ],
      {
        cwd: options.root,
        // The token goes by the environment: command lines are visible to every local user.
        env: {
          ...process.env,
          FOLIA_FARM_TOKEN: farm.token,
          FOLIA_AGENT_SLOTS: options.slots || '1',
        },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    child.stdout!.on(
      'data',
      prefixLines((line) => console.log(line)),
    );
    child.stderr!.on(
      'data',
      prefixLines((line) => console.error(line)),
    );
    return child;
  };

  let stopping = false;
  let child = launch();
  let exited: Promise<void>;
  let restartTimer: NodeJS.Timeout | null = null;
  const watch = () => {
    exited = new Promise<void>((resolve) =>
      child.once('exit', (code, signal) => {
        resolve();
        if (stopping) return;
        // Without its agent the server would queue tasks forever: it comes back.
        console.error(
          `[agent] exited (${signal ?? `code ${code}`}); starting it again in ${RESTART_DELAY_MS / 1000} s`,
        );
        restartTimer = setTimeout(() => {
          restartTimer = null;
          if (stopping) return;
          child = launch();
          watch();
        }, RESTART_DELAY_MS);
      }),
    );
  };
  watch();
  return {
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
