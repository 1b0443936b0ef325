/**
 * The agent's HTTP client. Network errors and 5xx answers are retried with a growing delay, so
 * a server that restarts (or a proxy that hiccups) only pauses the agent; 4xx answers are final
 * and thrown as ApiRefusal.
 */
type RequestBody = NonNullable<RequestInit['body']>;

export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: ${status} ${body.slice(0, 300)}`);
  }
}

export class Aborted extends Error {
  constructor() {
    super('aborted');
  }
}

export interface RequestOptions {
  method?: string;
  /** A function, so that a retry sends a fresh body (streams can be read once). */
  body?: () => RequestBody;
  json?: unknown;
  contentType?: string;
  /** Overrides the agent's own Authorization (registration uses the farm token). */
  authorization?: string;
  /** Gives up (throws Aborted) when this signal fires, even between retries. */
  signal?: AbortSignal;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Aborted());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class AgentApi {
  /** `Agent <token>` once registered. */
  authorization: string | null = null;
  private lastWarning = '';

  constructor(
    /** The server's origin, e.g. http://127.0.0.1:8000 */
    readonly url: string,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  get apiUrl(): string {
    return `${this.url}/api/v1/`;
  }

  async request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    const what = `${options.method ?? 'GET'} ${path}`;
    let delay = FIRST_DELAY_MS;
    for (;;) {
      if (options.signal?.aborted) throw new Aborted();
      const headers: Record<string, string> = {};
      const authorization = options.authorization ?? this.authorization;
      if (authorization) headers.authorization = authorization;
      let body: RequestBody | undefined;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.json);
      } else if (options.body) {
        headers['content-type'] = options.contentType ?? 'application/octet-stream';
        body = options.body();
      }
      let problem: string;
      try {
        const response = await fetch(`${this.apiUrl}${path}`, {
          method: options.method ?? 'GET',
          headers,
          body,
          signal: options.signal,
          // Streamed uploads (artifacts) need half duplex.
          ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
        } as RequestInit);
        const text = await response.text();
        if (response.ok) {
          if (this.lastWarning) {
            this.log('server answers again');
            this.lastWarning = '';
          }
          return (text ? JSON.parse(text) : null) as T;
        }
        if (response.status < 500) throw new ApiRefusal(response.status, text, what);
        problem = `${what}: ${response.status}`;
      } catch (error) {
        if (error instanceof ApiRefusal) throw error;
        if (options.signal?.aborted) throw new Aborted();
        problem = `${what}: ${error instanceof Error ? (error.cause ?? error).toString() : error}`;
      }
      // One line per outage, not one per retry.
      if (problem !== this.lastWarning) this.log(`${problem} (retrying)`);
      this.lastWarning = problem;
      await sleep(delay, options.signal);
      delay = Math.min(MAX_DELAY_MS, delay * 2);
    }
  }
}

export { sleep };
