import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { makeActorsAndProjects } from '../server/actors';
import { insertElements } from '../server/elementsFixtures';
import { defaultFarm, makeProcess, taskRow } from '../server/tasks/fixtures';
import { isAlive, root, waitFor } from './agentProcess';

/** `npm start` as a user runs it (server/main.ts), on a fresh SQLite data dir. */
function startServer(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-embedded-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: '0',
      FOLIA_DATA_DIR: dataDir,
      FOLIA_SKIP_BUILD: '1',
      FOLIA_DEMO: '0',
      FOLIA_LOG: '0',
      FOLIA_AGENT_HEARTBEAT_S: '0.2',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, dataDir, exited, output: () => output };
}

type Server = ReturnType<typeof startServer>;

const childrenOf = (pid: number): number[] => {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

describe('npm start', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  });

  it('runs one embedded agent of the Default farm as a child process, which runs tasks, comes back if it dies and is gone when the server stops', async () => {
    const server = startServer({});
    servers.push(server);
    await waitFor(
      'the embedded agent to register',
      () => /\[agent\] .*registered as .* in "Default farm" with 1 slot/.test(server.output()),
      60_000,
    );
    const [agentPid] = childrenOf(server.child.pid!);
    expect(agentPid).toBeDefined();
    expect(isAlive(agentPid!)).toBe(true);
    // The farm token travels by the environment, never on a command line others can read.
    expect(fs.readFileSync(`/proc/${agentPid}/cmdline`, 'utf8')).not.toMatch(/farm-token/);
    expect(fs.readFileSync(`/proc/${agentPid}/cmdline`, 'utf8')).toContain('agent/main.ts');

    // A task of the Default farm, written to the same database: the no-op worker runs on it.
    const app = await buildApp({
      ...loadConfig({ FOLIA_DATA_DIR: server.dataDir, FOLIA_LOG: '0' }),
      distDir: path.join(server.dataDir, 'no-dist'),
    });
    try {
      const { actors, privateId } = await makeActorsAndProjects(app);
      const ids = await insertElements(app, privateId, [
        { name: 'Page 1', type: 'page' },
        { name: 'Page 2', type: 'page' },
        { name: 'Page 3', type: 'page' },
      ]);
      const made = await makeProcess(
        app,
        privateId,
        actors.owner.id,
        [{ slug: 'noop', elements: Object.values(ids) }],
        { command: ['tsx', '{folia}/workers/noop/main.ts'], farm: await defaultFarm(app) },
      );
      const task = await waitFor(
        'the embedded agent to run the task',
        async () => {
          const row = await taskRow(app, made.tasks.noop!);
          return ['completed', 'failed', 'error'].includes(row.state) ? row : undefined;
        },
        60_000,
      );
      expect(task.logs).toContain('3 of 3 element(s) processed');
      expect(task.state).toBe('completed');
      const activities = await app.db
        .selectFrom('worker_activities')
        .select(['element_id', 'state'])
        .where('worker_run_id', '=', made.workerRunId)
        .execute();
      expect(activities.map((row) => row.element_id).sort()).toEqual(Object.values(ids).sort());
      expect(activities.every((row) => row.state === 'processed')).toBe(true);
    } finally {
      await app.close();
    }

    // An agent that dies is started again.
    process.kill(agentPid!, 'SIGKILL');
    const [again] = await waitFor(
      'a new embedded agent',
      () => {
        const pids = childrenOf(server.child.pid!).filter((pid) => pid !== agentPid);
        return server.output().match(/registered as/g)?.length === 2 && pids.length
          ? pids
          : undefined;
      },
      30_000,
    );
    expect(server.output()).toMatch(/\[agent\] exited \(SIGKILL\); starting it again in 5 s/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(isAlive(again!)).toBe(false);
    expect(server.output()).toMatch(/\[agent\] .*SIGTERM: leaving/);
  }, 90_000);

  it('runs no agent with FOLIA_EMBEDDED_AGENT=0', async () => {
    const server = startServer({ FOLIA_EMBEDDED_AGENT: '0' });
    servers.push(server);
    await waitFor(
      'the server to listen',
      () => server.output().includes('Folia is running at'),
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(childrenOf(server.child.pid!)).toEqual([]);
    expect(server.output()).not.toContain('[agent]');
  }, 90_000);
});
