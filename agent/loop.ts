/**
 * The agent's life: register once, then heartbeat on a timer (which is how the server says
 * "stop this task") and claim tasks whenever a slot is free, polling about once a second while
 * the queue is empty. A graceful shutdown stops claiming, lets running tasks finish for a while,
 * then kills what is left and reports it `error`.
 */
import os from 'node:os';
import { Aborted, ApiRefusal, AgentApi, sleep } from './api';
import { machineLoad } from './machineLoad';
import { Reaper } from './reaper';
import { TaskRun } from './run';
import type {
  ClaimAnswer,
  ClaimedTask,
  HeartbeatAnswer,
  HeartbeatBody,
  Registration,
} from './protocol';

export interface AgentOptions {
  url: string;
  farmToken: string;
  slots: number;
  hostname: string;
  workDir: string;
  root: string;
  heartbeatMs: number;
  pollMs: number;
  /** How long running tasks may go on once the agent is asked to leave. */
  shutdownGraceMs: number;
  killGraceMs: number;
  log: (line: string) => void;
}

export class Agent {
  readonly api: AgentApi;
  readonly runs = new Map<string, TaskRun>();
  registration: Registration | null = null;
  private leaving = false;
  /** Fires when the agent stops waiting for the server altogether. */
  private readonly gone = new AbortController();
  /** Fires when the agent stops claiming (a claim in flight is given up). */
  private readonly noMoreClaims = new AbortController();
  /** Wakes the claim loop early (a slot freed, shutdown). */
  private wake: (() => void) | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private loopDone: Promise<void> = Promise.resolve();
  private reaper: Reaper | null = null;

  constructor(private readonly options: AgentOptions) {
    this.api = new AgentApi(options.url, options.log);
  }

  async register(): Promise<Registration> {
    const registration = await this.api.request<Registration>('ponos/agent/register/', {
      method: 'POST',
      authorization: `Farm ${this.options.farmToken}`,
      json: {
        hostname: this.options.hostname,
        slots: this.options.slots,
        cpu_cores: os.cpus().length,
        ram_total: os.totalmem(),
        gpus: 0,
      },
      signal: this.gone.signal,
    });
    this.api.authorization = `Agent ${registration.token}`;
    this.registration = registration;
    this.options.log(
      `registered as ${registration.id} in "${registration.farm.name}" with ${this.options.slots} slot(s)`,
    );
    return registration;
  }

  async start(): Promise<void> {
    this.reaper = new Reaper();
    await this.register();
    this.scheduleHeartbeat();
    this.loopDone = this.claimLoop();
  }

  private scheduleHeartbeat(): void {
    this.heartbeatTimer = setTimeout(() => {
      void this.heartbeat().finally(() => {
        if (!this.gone.signal.aborted) this.scheduleHeartbeat();
      });
    }, this.options.heartbeatMs);
  }

  private async heartbeat(): Promise<void> {
    try {
      const body: HeartbeatBody = { running: [...this.runs.keys()], ...machineLoad() };
      const answer = await this.authorized(() =>
        this.api.request<HeartbeatAnswer>('ponos/agent/heartbeat/', {
          method: 'POST',
          json: body,
          signal: this.gone.signal,
        }),
      );
      for (const id of answer?.stop ?? []) {
        const run = this.runs.get(id);
        if (run) {
          this.options.log(`stopping task ${id} (${run.task.slug}) as asked`);
          run.stop();
        }
      }
    } catch (error) {
      if (!(error instanceof Aborted)) this.options.log(`heartbeat: ${(error as Error).message}`);
    }
  }

  /** A server that forgot this agent (its database was replaced) gets it registered again. */
  private async authorized<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiRefusal) || error.status !== 401) throw error;
      this.options.log('the server no longer knows this agent: registering again');
      await this.register();
      return call();
    }
  }

  private async claimLoop(): Promise<void> {
    while (!this.leaving) {
      const free = this.options.slots - this.runs.size;
      let claimed: ClaimedTask[] = [];
      if (free > 0) {
        try {
          const answer = await this.authorized(() =>
            this.api.request<ClaimAnswer>('ponos/agent/claim/', {
              method: 'POST',
              json: { slots: free },
              signal: this.noMoreClaims.signal,
            }),
          );
          claimed = answer?.tasks ?? [];
        } catch (error) {
          if (error instanceof Aborted) return;
          this.options.log(`claim: ${(error as Error).message}`);
        }
      }
      for (const task of claimed) this.launch(task);
      // Claim again at once when the server had more to give; otherwise wait for a poll or a
      // freed slot.
      if (claimed.length === 0 || this.runs.size >= this.options.slots) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  private launch(task: ClaimedTask): void {
    this.options.log(`running task ${task.id} (${task.slug})`);
    const run = new TaskRun(task, {
      api: this.api,
      workDir: this.options.workDir,
      root: this.options.root,
      log: this.options.log,
      killGraceMs: this.options.killGraceMs,
      signal: this.gone.signal,
      reaper: this.reaper ?? undefined,
    });
    this.runs.set(task.id, run);
    run.done
      .then(
        (state) => this.options.log(`task ${task.id} (${task.slug}) ${state}`),
        (error: unknown) => {
          if (!(error instanceof Aborted))
            this.options.log(`task ${task.id}: ${(error as Error).message}`);
        },
      )
      .finally(() => {
        this.runs.delete(task.id);
        this.wake?.();
      });
  }

  /** Graceful exit: no new claims, running tasks get shutdownGraceMs, then are killed. */
  async shutdown(): Promise<void> {
    if (this.leaving) return;
    this.leaving = true;
    this.noMoreClaims.abort();
    this.wake?.();
    await this.loopDone;
    const pending = [...this.runs.values()].map((run) => run.done.catch(() => undefined));
    if (pending.length) {
      this.options.log(`waiting for ${pending.length} running task(s) to finish`);
      const finished = await Promise.race([
        Promise.all(pending).then(() => true),
        sleep(this.options.shutdownGraceMs).then(() => false),
      ]);
      if (!finished) {
        for (const run of this.runs.values()) run.abandon();
        // Reporting `error` may need a server that is itself going away: bounded.
        const reported = await Promise.race([
          Promise.all(pending).then(() => true),
          sleep(this.options.killGraceMs + 10_000).then(() => false),
        ]);
        if (!reported) this.options.log('could not report every task before leaving');
      }
    }
    this.gone.abort();
    this.reaper?.close();
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
  }
}
