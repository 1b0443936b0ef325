/**
 * A task's output on its way to the server: what the program prints is buffered and sent about
 * once a second, one request at a time, so a chatty program costs one call per second rather
 * than one per line. While the server is away the buffer keeps only its newest part (the
 * server keeps the last 1 MiB anyway).
 */
import { ApiRefusal, type AgentApi } from './api';

const MAX_BUFFER = 1024 * 1024;
const CUT_LINE = '[… earlier output removed …]\n';

export class LogSender {
  private buffer = '';
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();
  private refused = false;

  constructor(
    private readonly api: AgentApi,
    private readonly taskId: string,
    private readonly intervalMs = 1000,
    private readonly signal?: AbortSignal,
  ) {}

  write(text: string): void {
    if (this.refused || !text) return;
    this.buffer += text;
    // Trimmed once it holds twice the limit, so a flood of output costs linear time.
    if (this.buffer.length > 2 * MAX_BUFFER) this.trim();
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.intervalMs);
  }

  private trim(): void {
    if (this.buffer.length <= MAX_BUFFER) return;
    const kept = this.buffer.slice(-MAX_BUFFER);
    const lineStart = kept.indexOf('\n');
    this.buffer = CUT_LINE + (lineStart >= 0 ? kept.slice(lineStart + 1) : kept);
  }

  /** Sends what is buffered; resolves once everything written so far reached the server. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.sending = this.sending.then(async () => {
      if (!this.buffer || this.refused) return;
      this.trim();
      const text = this.buffer;
      this.buffer = '';
      try {
        await this.api.request(`ponos/task/${this.taskId}/logs/`, {
          method: 'POST',
          body: () => text,
          contentType: 'text/plain; charset=utf-8',
          signal: this.signal,
        });
      } catch (error) {
        // The server no longer takes this task's logs (it gave the task to someone else).
        if (error instanceof ApiRefusal) this.refused = true;
        else if (!this.signal?.aborted) throw error;
      }
    });
    return this.sending;
  }
}
