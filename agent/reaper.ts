/**
 * Task programs must not outlive their agent: an agent killed with SIGKILL (or out of memory)
 * cannot stop them, and they would go on writing results with a token still valid until the
 * server notices the agent is gone. So each agent starts a small reaper process that learns the
 * process group of every task it runs through a pipe; when that pipe closes — the agent exited,
 * however it died — the reaper kills the groups still listed and exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';

// Plain JavaScript run with `node -e`: no loader to start, nothing to import.
const SCRIPT = `
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
const groups = new Set();
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  const lines = (rest + text).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (line[0] === '+') groups.add(pgid);
    else groups.delete(pgid);
  }
});
process.stdin.on('close', () => {
  for (const pgid of groups) {
    try { process.kill(-pgid, 'SIGKILL'); } catch {}
  }
  process.exit(0);
});
`;

export class Reaper {
  private readonly child: ChildProcess;

  constructor() {
    // Detached: a signal sent to the agent's process group (Ctrl-C) does not reach it.
    this.child = spawn(process.execPath, ['-e', SCRIPT], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    this.child.on('error', () => undefined);
    this.child.stdin!.on('error', () => undefined);
    this.child.unref();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  watch(pgid: number): void {
    this.child.stdin!.write(`+${pgid}\n`);
  }

  forget(pgid: number): void {
    this.child.stdin!.write(`-${pgid}\n`);
  }

  /** The agent leaves: whatever is still listed is killed. */
  close(): void {
    this.child.stdin!.end();
  }
}
