/**
 * Idempotency-Key: the offline outbox replays an edit until it hears the answer, and an answer
 * can be lost after the server applied the edit. A signed-in client's unsafe request with a
 * key is applied once; the same key and request again get the stored response (with
 * `Idempotent-Replayed: true`) for 24 hours, and the key with another request is refused.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nowIso } from './clock';
import type { Db } from './db';
import { ApiError } from './errors';
import { isUniqueViolation } from './repositories/constraints';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const KEY_LIFETIME_MS = 24 * 3600 * 1000;
/**
 * A first request still unanswered after this long died with its process: its key is freed
 * rather than blocking the edit's replays for a day.
 */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** Response headers that belong to the answer and are replayed with it. */
const KEPT_HEADERS = ['location', 'last-modified', 'retry-after'];

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: { userId: string; key: string } | null;
  }
}

function clientError(
  status: number,
  code: string,
  detail: string,
  headers?: Record<string, string>,
) {
  return new ApiError(status, 'client_error', [{ code, detail, attr: null }], { headers });
}

function fingerprint(request: FastifyRequest): string {
  const hash = createHash('sha256');
  hash.update(`${request.method} ${request.url}\n`);
  const body = request.body;
  // Streamed uploads are identified by their declared length; JSON by its content.
  if (
    body !== undefined &&
    body !== null &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  ) {
    hash.update(Buffer.isBuffer(body) ? body : JSON.stringify(body));
  } else {
    hash.update(`length:${request.headers['content-length'] ?? ''}`);
  }
  return hash.digest('hex');
}

async function purgeExpired(db: Db, now: number): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('created', '<', new Date(now - KEY_LIFETIME_MS).toISOString())
    .execute();
}

async function claimKey(
  db: Db,
  userId: string,
  key: string,
  print: string,
): Promise<{
  replay: {
    status: number;
    contentType: string | null;
    headers: Record<string, string>;
    body: string | null;
  };
} | null> {
  const now = Date.now();
  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (existing) {
    const age = now - Date.parse(existing.created);
    const expired = age > KEY_LIFETIME_MS;
    const abandoned = existing.status_code === null && age > ABANDONED_AFTER_MS;
    if (!expired && !abandoned) {
      if (existing.fingerprint !== print) {
        throw clientError(
          422,
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request.',
        );
      }
      if (existing.status_code === null) {
        throw clientError(
          409,
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed. Try again shortly.',
          { 'retry-after': '1' },
        );
      }
      return {
        replay: {
          status: existing.status_code,
          contentType: existing.content_type,
          headers: existing.headers ? (JSON.parse(existing.headers) as Record<string, string>) : {},
          body: existing.body,
        },
      };
    }
    await db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('created', '=', existing.created)
      .execute();
  }
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        key,
        fingerprint: print,
        status_code: null,
        content_type: null,
        headers: null,
        body: null,
        created: nowIso(),
      })
      .execute();
  } catch (error) {
    // Another copy of this request got there first, between the read and the insert.
    if (isUniqueViolation(error)) {
      throw clientError(
        409,
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed. Try again shortly.',
        { 'retry-after': '1' },
      );
    }
    throw error;
  }
  return null;
}

async function storeResponse(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<void> {
  const claim = request.idempotencyKey;
  if (!claim) return;
  request.idempotencyKey = null;
  const where = db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('status_code', 'is', null);
  const storable = typeof payload === 'string' || Buffer.isBuffer(payload) || payload == null;
  // A server error applied nothing that can be trusted; the key is freed so a retry runs.
  if (reply.statusCode >= 500 || !storable) {
    await where.execute();
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  await db
    .updateTable('idempotency_keys')
    .set({
      status_code: reply.statusCode,
      content_type: String(reply.getHeader('content-type') ?? '') || null,
      headers: JSON.stringify(headers),
      body: payload == null ? null : payload.toString(),
    })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .execute();
}

/** Registers the hooks on the API's scope. */
export function idempotencyPlugin(api: FastifyInstance): void {
  let lastPurge = 0;
  api.decorateRequest('idempotencyKey', null);

  api.addHook('preHandler', async (request, reply) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !UNSAFE.has(request.method) || !request.user) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
      throw clientError(
        400,
        'invalid_idempotency_key',
        'An Idempotency-Key is 1 to 255 printable ASCII characters.',
      );
    }
    const now = Date.now();
    if (now - lastPurge > PURGE_EVERY_MS) {
      lastPurge = now;
      await purgeExpired(api.db, now);
    }
    const claimed = await claimKey(api.db, request.user.id, key, fingerprint(request));
    if (claimed) {
      const { replay } = claimed;
      for (const [name, value] of Object.entries(replay.headers)) reply.header(name, value);
      if (replay.contentType) reply.header('content-type', replay.contentType);
      reply.header(REPLAYED_HEADER, 'true');
      return reply.code(replay.status).send(replay.body ?? undefined);
    }
    request.idempotencyKey = { userId: request.user.id, key };
  });

  api.addHook('onSend', async (request, reply, payload) => {
    await storeResponse(api.db, request, reply, payload);
    return payload;
  });
}
