/**
 * One claimed task, run as a child process in a scratch folder of its own: the environment a
 * worker expects, its output streamed to the task log, its artifacts uploaded after it exits,
 * its final state reported, the folder removed. The child leads a process group, so stopping
 * it also stops whatever it started.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ApiRefusal, type AgentApi } from './api';
import { uploadArtifacts } from './artifacts';
import { LogSender } from './logs';
import type { Reaper } from './reaper';
import type { ClaimedTask, FinalState } from './protocol';

export interface RunContext {
  api: AgentApi;
  /** Scratch folders are made here. */
  workDir: string;
  /** The Folia installation `{folia}` stands for. */
  root: string;
  log: (line: string) => void;
  /** Between SIGTERM and SIGKILL when a task is stopped. */
  killGraceMs?: number;
  logIntervalMs?: number;
  /** Fires when the agent gives up on talking to the server (its own shutdown deadline). */
  signal?: AbortSignal;
  /** Told of every task's process group, killed should the agent die first. */
  reaper?: Reaper;
}

/** The agent's own secrets and the server's settings never reach a task. */
const HIDDEN_ENV = /^(FOLIA_|PG[A-Z]+$|DATABASE_URL$)/;

export function taskEnv(task: ClaimedTask, context: RunContext, scratch: string) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !HIDDEN_ENV.test(key)) env[key] = value;
  }
  Object.assign(env, task.env, {
    ARKINDEX_API_URL: context.api.apiUrl,
    ARKINDEX_TASK_TOKEN: task.token,
    ARKINDEX_TASK_ID: task.id,
    ARKINDEX_PROCESS_ID: task.process_id,
    ARKINDEX_WORKER_RUN_ID: task.worker_run_id ?? '',
    ARKINDEX_CORPUS_ID: task.corpus_id ?? '',
    TASK_ELEMENTS: path.join(scratch, 'elements.json'),
    PONOS_DATA: scratch,
    PATH: [path.join(context.root, 'node_modules', '.bin'), process.env.PATH]
      .filter(Boolean)
      .join(path.delimiter),
  });
  return env;
}

export const expandCommand = (command: string[], root: string): string[] =>
  command.map((part) => part.split('{folia}').join(root));

type Ending = 'stop' | 'shutdown';

export class TaskRun {
  readonly done: Promise<FinalState>;
  private ending: Ending | null = null;
  private pid: number | undefined;
  private killTimer: NodeJS.Timeout | null = null;
  private exited = false;

  constructor(
    readonly task: ClaimedTask,
    private readonly context: RunContext,
  ) {
    this.done = this.run();
  }

  /** The server asked to stop the task: it ends `stopped`. */
  stop(): void {
    this.end('stop');
  }

  /** The agent is leaving and cannot wait: the task ends `error`. */
  abandon(): void {
    this.end('shutdown');
  }

  private end(why: Ending): void {
    if (this.ending || this.exited) return;
    this.ending = why;
    this.signalGroup('SIGTERM');
    this.killTimer = setTimeout(
      () => this.signalGroup('SIGKILL'),
      this.context.killGraceMs ?? 5000,
    );
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.pid === undefined) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      // Already gone.
    }
  }

  private async run(): Promise<FinalState> {
    const { task, context } = this;
    const logs = new LogSender(context.api, task.id, context.logIntervalMs, context.signal);
    let scratch: string | null = null;
    let state: FinalState;
    try {
      // The work dir may have been cleaned up under a long-lived agent.
      fs.mkdirSync(context.workDir, { recursive: true });
      const prefix = task.slug.replace(/[^\w-]/g, '_') || 'task';
      scratch = fs.mkdtempSync(path.join(context.workDir, `${prefix}-`));
      fs.mkdirSync(path.join(scratch, 'artifacts'));
      fs.writeFileSync(path.join(scratch, 'elements.json'), JSON.stringify(task.elements));
      state = await this.execute(scratch, logs);
      await logs.flush();
      await uploadArtifacts(
        context.api,
        task.id,
        path.join(scratch, 'artifacts'),
        (line) => logs.write(`${line}\n`),
        context.signal,
      );
      await logs.flush();
    } catch (error) {
      if (context.signal?.aborted) throw error;
      state = 'error';
      logs.write(`The agent could not run the task: ${(error as Error).message}\n`);
      await logs.flush().catch(() => undefined);
    } finally {
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    }
    try {
      await context.api.request(`ponos/task/${task.id}/`, {
        method: 'PATCH',
        json: { state },
        signal: context.signal,
      });
    } catch (error) {
      // The server gave the task to another agent meanwhile: its state is not ours to set.
      if (!(error instanceof ApiRefusal)) throw error;
      context.log(`task ${task.id}: final state ${state} refused: ${error.message}`);
    }
    return state;
  }

  private execute(scratch: string, logs: LogSender): Promise<FinalState> {
    const { task, context } = this;
    const command = expandCommand(task.command, context.root);
    if (command.length === 0 || !command[0]) {
      logs.write('This worker version has no command to run.\n');
      return Promise.resolve('error');
    }
    return new Promise<FinalState>((resolve) => {
      const child = spawn(command[0]!, command.slice(1), {
        cwd: scratch,
        env: taskEnv(task, context, scratch),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      this.pid = child.pid;
      if (child.pid !== undefined) context.reaper?.watch(child.pid);
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (text: string) => logs.write(text));
      child.stderr.on('data', (text: string) => logs.write(text));
      const streamsClosed = Promise.all([
        new Promise((done) => child.stdout.once('close', done)),
        new Promise((done) => child.stderr.once('close', done)),
      ]);
      child.once('error', (error) => {
        this.exited = true;
        logs.write(`Cannot run ${command[0]}: ${error.message}\n`);
        resolve('error');
      });
      child.once('exit', (code, signal) => {
        this.exited = true;
        if (this.killTimer) clearTimeout(this.killTimer);
        // Whatever the program left running in its group goes with it.
        this.signalGroup('SIGKILL');
        if (this.pid !== undefined) context.reaper?.forget(this.pid);
        const state: FinalState =
          this.ending === 'stop'
            ? 'stopped'
            : this.ending === 'shutdown'
              ? 'error'
              : code === 0
                ? 'completed'
                : 'failed';
        const why = signal ? `signal ${signal}` : `exit code ${code}`;
        const ending =
          this.ending === 'stop'
            ? 'Stopped on request'
            : this.ending === 'shutdown'
              ? 'Killed: the agent was shutting down'
              : `Finished`;
        // Output still in the pipes is read before the final line.
        const capped = new Promise((done) => setTimeout(done, 2000).unref());
        void Promise.race([streamsClosed, capped]).then(() => {
          logs.write(`[agent] ${ending} (${why}).\n`);
          resolve(state);
        });
      });
    });
  }
}
