/**
 * Every refusal in the API's structured form, including the ones Fastify and Node's HTTP parser
 * would otherwise answer in their own shape ({"error", "code": "FST_ERR_…", "statusCode"}): a
 * malformed percent-encoding, an over-long path segment, an unparsable request, a body too
 * large or of another media type, a request arriving while the server shuts down, a method the
 * path does not take. Clients read one shape whatever refused them.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, serverError, type ErrorType } from './errors';

function refusal(status: number, code: string, detail: string, type: ErrorType = 'client_error') {
  return new ApiError(status, type, [{ code, detail, attr: null }]);
}

/** Refusals raised by Fastify itself, by error code. */
const FASTIFY_REFUSALS: Record<string, (request: FastifyRequest) => ApiError> = {
  FST_ERR_BAD_URL: () =>
    refusal(400, 'invalid_url', 'The address is not valid: it has a malformed %-encoding.'),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    refusal(414, 'uri_too_long', 'A part of the address is too long (100 characters at most).'),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    refusal(413, 'request_too_large', 'Request body is too large (10 MB at most).'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) =>
    refusal(
      415,
      'unsupported_media_type',
      `Unsupported media type "${request.headers['content-type'] ?? ''}" in request.`,
    ),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    refusal(400, 'parse_error', 'The request body does not have the length its headers announce.'),
};

/** Any error as the API answers it; 5xx hide what went wrong (the log keeps it). */
export function toApiError(error: FastifyError | ApiError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const known = error.code ? FASTIFY_REFUSALS[error.code] : undefined;
  if (known) return known(request);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = (http.STATUS_CODES[status] ?? 'invalid').toLowerCase().replace(/\W+/g, '_');
    return refusal(status, code, error.message);
  }
  return serverError();
}

export function sendError(
  error: FastifyError | ApiError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const answer = toApiError(error, request);
  if (answer.statusCode >= 500 && !(error instanceof ApiError)) request.log.error(error);
  for (const [name, value] of Object.entries(answer.extra.headers ?? {})) reply.header(name, value);
  // A framework refusal (bad URL) skips the onSend hooks that say this for the rest of the API.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
  return reply.status(answer.statusCode).send(answer.body());
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * A path the API knows asked with a method it does not take: 405 with the methods it takes,
 * as DRF answers. Null when no route has the path.
 */
export function methodNotAllowed(app: FastifyInstance, request: FastifyRequest): ApiError | null {
  const path = request.url.split('?')[0] ?? '/';
  const allowed = METHODS.filter((method) => app.findRoute({ method, url: path }));
  if (!allowed.length) return null;
  if (allowed.includes('GET')) allowed.splice(1, 0, 'HEAD' as never);
  return new ApiError(
    405,
    'client_error',
    [
      {
        code: 'method_not_allowed',
        detail: `Method "${request.method}" not allowed.`,
        attr: null,
      },
    ],
    { headers: { allow: allowed.join(', ') } },
  );
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (a request line or headers too
 * long, a request that is not HTTP, a timeout) is written straight to the socket.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? refusal(408, 'request_timeout', 'The request took too long to arrive.')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? refusal(
            431,
            'request_header_fields_too_large',
            'The address or the headers of the request are too long.',
          )
        : refusal(400, 'parse_error', 'The request is not valid HTTP.');
  const body = JSON.stringify(answer.body());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.statusCode} ${http.STATUS_CODES[answer.statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nCache-Control: private, no-cache\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify options that route its own refusals here; the factory passes them when it builds. */
export const refusalOptions = {
  frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    sendError(error, request, reply),
  clientErrorHandler,
  // Our onRequest hook answers instead, in the structured form (see below).
  return503OnClosing: false,
};

/**
 * The error handler, and the structured 503 for requests that arrive while the server closes
 * (on a kept-alive connection). Call before any other preClose hook, so the refusal starts as
 * soon as closing does rather than once the other hooks (running jobs' grace) are done.
 */
export function structuredRefusals(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return reply
      .status(503)
      .send(
        refusal(
          503,
          'service_unavailable',
          'The server is shutting down; try again in a moment.',
          'server_error',
        ).body(),
      );
  });
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) =>
    sendError(error, request, reply),
  );
}
