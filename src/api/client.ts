import { ApiError, NetworkError, parseErrorBody } from './errors';

/** The API base path; an Arkindex-compatible server elsewhere may be configured at build time. */
// import.meta.env is Vite's: absent when Node runs this code (benchmarks).
export const API_BASE: string = (import.meta.env?.VITE_API_BASE as string | undefined) ?? '/api/v1';

const CSRF_COOKIE = 'arkindex.csrf';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Conditional GET: a 304 answer resolves to `{ notModified: true }`. */
  ifModifiedSince?: string | null;
}

export interface Conditional<T> {
  notModified: boolean;
  data: T | null;
  lastModified: string | null;
  /** The answer's Date header: the server's time when it answered. */
  date?: string | null;
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (UNSAFE.has(method)) {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers['X-CSRFToken'] = csrf;
  }
  if (options.ifModifiedSince) headers['If-Modified-Since'] = options.ifModifiedSince;
  try {
    return await fetch(apiUrl(path, options.query), {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new NetworkError();
  }
}

/** An HTML page, whatever the content type a proxy gave it. */
function isHtml(type: string, text: string): boolean {
  return type.includes('text/html') || /^\s*<(!doctype|html)/i.test(text);
}

/**
 * The body as JSON when it says it is, as text otherwise. An error body that looks like JSON is
 * read as JSON whatever its label: another server or a proxy may call it text.
 */
function bodyOf(type: string, text: string, sniff = false): unknown {
  if (!text) return null;
  if (type.includes('json') || (sniff && /^\s*[[{]/.test(text))) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function readBody(response: Response): Promise<unknown> {
  return bodyOf(response.headers.get('content-type') ?? '', await response.text());
}

async function toError(response: Response): Promise<ApiError> {
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  // An HTML page where JSON was asked for means the path does not exist on this server.
  if (isHtml(type, text)) return new ApiError(404, 'Not found.');
  return parseErrorBody(
    response.status,
    bodyOf(type, text, true),
    response.statusText || `HTTP ${response.status}`,
  );
}

/** One JSON API call: credentials and CSRF header sent, errors parsed as the spec says. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiWithStatus<T>(path, options)).data;
}

/** `api` with the answer's status, for writes where 202 (scheduled) and 200/204 (done) differ. */
export async function apiWithStatus<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ status: number; data: T }> {
  const response = await send(path, options);
  if (response.status === 304) {
    throw new ApiError(
      304,
      'The server answered 304 Not Modified to a request that was not conditional.',
    );
  }
  if (!response.ok) throw await toError(response);
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && type.includes('text/html')) throw new ApiError(404, 'Not found.');
  return { status: response.status, data: (await readBody(response)) as T };
}

/** A conditional GET with If-Modified-Since: 304 is "no change", never an error. */
export async function apiConditional<T>(
  path: string,
  options: RequestOptions = {},
): Promise<Conditional<T>> {
  const response = await send(path, options);
  if (response.status === 304) {
    if (!options.ifModifiedSince) {
      throw new ApiError(
        304,
        'The server answered 304 Not Modified to a request that was not conditional.',
      );
    }
    return { notModified: true, data: null, lastModified: options.ifModifiedSince };
  }
  if (!response.ok) throw await toError(response);
  return {
    notModified: false,
    data: (await readBody(response)) as T,
    lastModified: response.headers.get('last-modified'),
    date: response.headers.get('date'),
  };
}

/** Page-number pagination as the API answers it. */
export interface Page<T> {
  count: number;
  number?: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
