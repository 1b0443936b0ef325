import { apiUrl, readCookie } from '@/api/client';

export interface OutgoingRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

export interface ReplayResponse {
  status: number;
  body: unknown;
  lastModified: string | null;
  /** The answer's Date: how recent what it says is. */
  date?: string | null;
}

/** Thrown when no answer came: the request may or may not have been applied. */
export class ReplayNetworkError extends Error {
  override readonly name = 'ReplayNetworkError';
}

export type Fetcher = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Sends one queued edit with its Idempotency-Key (and If-Unmodified-Since when it is based on
 * a known version); any HTTP answer resolves, only a lost answer throws.
 */
export async function sendReplay(
  request: OutgoingRequest,
  options: { idempotencyKey: string; ifUnmodifiedSince: string | null; fetcher?: Fetcher },
): Promise<ReplayResponse> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Idempotency-Key': options.idempotencyKey,
  };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const csrf = readCookie('arkindex.csrf');
  if (csrf) headers['X-CSRFToken'] = csrf;
  if (options.ifUnmodifiedSince) headers['If-Unmodified-Since'] = options.ifUnmodifiedSince;
  let response: Response;
  try {
    response = await (options.fetcher ?? fetch)(apiUrl(request.path, request.query), {
      method: request.method,
      headers,
      credentials: 'include',
      body: request.body === undefined ? null : JSON.stringify(request.body),
    });
  } catch {
    throw new ReplayNetworkError('The server could not be reached.');
  }
  const text = await response.text().catch(() => {
    throw new ReplayNetworkError('The answer was cut off.');
  });
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return {
    status: response.status,
    body,
    lastModified: response.headers.get('last-modified'),
    date: response.headers.get('date'),
  };
}
