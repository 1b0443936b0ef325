/**
 * One CORS rule for everything another site may want to read: the API (/api/v1/…, IIIF
 * manifests included) and the IIIF image server (/iiif/…, images and info.json).
 *
 * - A read (GET/HEAD) of a PUBLIC project's data answers `Access-Control-Allow-Origin: *`,
 *   without credentials, so any viewer (Mirador, the IIIF validator, a script) can use it. A
 *   browser never shows a credentialed answer under `*`, so the logged-in view cannot leak.
 * - Anything else answers CORS only to trusted origins: the server's own, and those listed in
 *   FOLIA_CORS_ORIGINS. They get their origin echoed, `Access-Control-Allow-Credentials: true`
 *   and `Vary: Origin`.
 * - When unsure, no header. A route does not declare itself public: the lookups that decide who
 *   may read a project (findCorpusAccess, findReadableImage, readableCorpusIds) note what they
 *   read through `noteRead`, and an answer is public only when everything read was public.
 *   An answer that read nothing noted (a user's profile, an unknown id) is not.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestOrigin } from './origin';

interface Reads {
  public: boolean;
  private: boolean;
}

const currentReads = new AsyncLocalStorage<Reads>();
const readsOf = new WeakMap<FastifyRequest, Reads>();

/**
 * Records that the answer being made reads data anyone may see (true) or data only some may
 * see (false). Outside a request (jobs, the CLI) it does nothing.
 */
export function noteRead(isPublic: boolean): void {
  const reads = currentReads.getStore();
  if (!reads) return;
  if (isPublic) reads.public = true;
  else reads.private = true;
}

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const READ_METHODS = 'GET, HEAD, OPTIONS';
const ALLOWED_HEADERS = [
  'Accept',
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'If-Modified-Since',
  'If-None-Match',
  'If-Unmodified-Since',
  'X-CSRFToken',
].join(', ');
const EXPOSED_HEADERS = 'ETag, Last-Modified, Link, Idempotent-Replayed, Content-Disposition';
const PREFLIGHT_MAX_AGE_S = 86400;

function governed(url: string): boolean {
  return url.startsWith('/api/') || url === '/api' || url.startsWith('/iiif/');
}

/** Adds a value to a comma-separated header (Vary) without repeating it. */
export function appendHeader(reply: FastifyReply, name: string, value: string): void {
  const current = reply.getHeader(name);
  const values = current ? String(current).split(/\s*,\s*/) : [];
  if (!values.some((v) => v.toLowerCase() === value.toLowerCase())) values.push(value);
  reply.header(name, values.join(', '));
}

export function corsPlugin(app: FastifyInstance, listed: readonly string[]): void {
  const trustedOrigins = new Set(listed);

  const trusted = (request: FastifyRequest, origin: string): boolean =>
    trustedOrigins.has(origin) ||
    origin === requestOrigin(request) ||
    origin === `${request.protocol}://${request.headers.host ?? ''}`;

  const allowCredentials = (reply: FastifyReply, origin: string) => {
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
  };

  // First of all hooks, so a preflight is answered before authentication looks at anything.
  app.addHook('onRequest', (request, reply, done) => {
    if (!governed(request.url)) return done();
    const origin = request.headers.origin;
    // A preflight says which requests may be sent; whether their answer may be read is decided
    // on the answer itself. Under /iiif/ every OPTIONS gets it, as IIIF clients expect; in the
    // API, an OPTIONS that is no CORS request (no Origin) keeps its 405 naming the methods.
    if (request.method === 'OPTIONS' && (origin || request.url.startsWith('/iiif/'))) {
      appendHeader(reply, 'vary', 'Origin');
      if (origin && trusted(request, origin)) {
        allowCredentials(reply, origin);
        reply.header('access-control-allow-methods', ALLOWED_METHODS);
      } else {
        reply.header('access-control-allow-origin', '*');
        reply.header('access-control-allow-methods', READ_METHODS);
      }
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S));
      reply.header('cache-control', 'no-cache');
      reply.code(204).send();
      return;
    }
    const reads: Reads = { public: false, private: false };
    readsOf.set(request, reads);
    currentReads.run(reads, done);
  });

  // Errors pass here too, so a cross-origin client can read a refusal's status and body.
  app.addHook('onSend', async (request, reply, payload) => {
    // A request refused before the hooks above (a malformed URL) read nothing: no CORS.
    const reads = readsOf.get(request);
    if (!governed(request.url) || !reads) return payload;
    appendHeader(reply, 'vary', 'Origin');
    const origin = request.headers.origin;
    if (origin && trusted(request, origin)) {
      allowCredentials(reply, origin);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
      return payload;
    }
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (read && reads.public && !reads.private) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    return payload;
  });
}
