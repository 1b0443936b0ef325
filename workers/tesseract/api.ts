/**
 * The few API calls the worker makes, over HTTP with the task's authorization. A refusal is
 * thrown as an ApiCallError carrying the status and the server's words, so the log says why.
 */

/** Long enough for a full-page PNG of a large scan rendered by the IIIF server. */
const REQUEST_TIMEOUT_MS = 5 * 60_000;

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    readonly body: string,
  ) {
    super(`${method} ${url}: ${status} ${body.slice(0, 500)}`);
  }
}

export interface Page<T> {
  next: string | null;
  results: T[];
}

export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly authorization: string,
  ) {}

  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.baseUrl}${path.replace(/^\//, '')}`;
  }

  async fetch(method: string, path: string, body?: unknown): Promise<Response> {
    const url = this.url(path);
    // Images may live on another IIIF server: the task's token goes to this API's origin only.
    const headers: Record<string, string> =
      new URL(url).origin === new URL(this.baseUrl).origin
        ? { authorization: this.authorization }
        : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      // A server that stops answering fails the element instead of holding the task forever.
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new ApiCallError(response.status, method, url, await response.text());
    }
    return response;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.fetch(method, path, body)).json()) as T;
  }

  async bytes(path: string): Promise<Buffer> {
    return Buffer.from(await (await this.fetch('GET', path)).arrayBuffer());
  }

  /** Every item of a page list, following `next`. */
  async all<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    for (let next: string | null = path; next;) {
      const page: Page<T> = await this.json<Page<T>>('GET', next);
      items.push(...page.results);
      next = page.next;
    }
    return items;
  }
}
