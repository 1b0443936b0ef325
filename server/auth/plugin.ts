import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { User } from '../db/schema';
import { ApiError, notAuthenticated, permissionDenied } from '../errors';
import { limitToProject } from '../permissions';
import { taskForToken } from '../services/tasks/tokens';
import { CallerCache } from './callerCache';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  SESSION_COOKIE,
  SESSION_HINT_COOKIE,
  SESSION_MAX_AGE_S,
  createSession,
  deleteSession,
  newCsrfToken,
  userForSession,
  userForToken,
} from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    authMethod: 'session' | 'token' | 'task' | null;
  }
  interface FastifyInstance {
    /** Caches of what callers read, all forgotten after every write the API answers. */
    callerCaches: Set<CallerCache<unknown>>;
    startSession(reply: FastifyReply, user: User): Promise<void>;
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const invalidToken = () =>
  new ApiError(401, 'client_error', [
    { code: 'authentication_failed', detail: 'Invalid token.', attr: null },
  ]);

/**
 * The process' creator, limited to the process' project, for the program a running task runs;
 * null once the task has ended (or for a token that never was).
 */
async function userForTaskToken(app: FastifyInstance, token: string): Promise<User | null> {
  const task = await taskForToken(app.db, token);
  if (!task) return null;
  const process = await app.db
    .selectFrom('processes')
    .select(['corpus_id', 'creator_id'])
    .where('id', '=', task.process_id)
    .executeTakeFirst();
  if (!process?.corpus_id || !process.creator_id) return null;
  const user = await app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', process.creator_id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return user ? limitToProject(user, process.corpus_id) : null;
}

/**
 * Who is calling: a session cookie (browsers, CSRF-checked on unsafe methods), an
 * `Authorization: Token …` header (scripts, no CSRF) or `Authorization: Ponos …` (the program
 * a task runs). Unknown tokens are refused outright. `Farm` and `Agent` tokens name no user:
 * the agent routes read them.
 */
export async function authPlugin(
  app: FastifyInstance,
  options: { secure: boolean },
): Promise<void> {
  const cookieOptions = { path: '/', sameSite: 'lax' as const, secure: options.secure };

  function hintSession(reply: FastifyReply, signedIn: boolean): void {
    reply.setCookie(SESSION_HINT_COOKIE, signedIn ? '1' : '0', {
      ...cookieOptions,
      maxAge: signedIn ? SESSION_MAX_AGE_S : 365 * 24 * 3600,
    });
  }

  app.decorateRequest('user', null);
  app.decorateRequest('authMethod', null);

  const callers = new CallerCache();
  app.decorate('callerCaches', new Set<CallerCache<unknown>>([callers]));
  // Any write may change who a credential names or what they may read (see callerCache.ts):
  // after one, read again.
  app.addHook('onResponse', async (request) => {
    if (!UNSAFE.has(request.method)) return;
    for (const cache of app.callerCaches) cache.clear();
  });

  app.addHook('onRequest', async (request, reply) => {
    // IIIF images follow their project's rights, so /iiif/ needs the caller too, but not the
    // CSRF cookie: a Set-Cookie does not belong on a cacheable tile.
    const api = request.url.startsWith('/api/');
    if (!api && !request.url.startsWith('/iiif/')) return;
    const header = request.headers.authorization;
    // A caller with an Authorization header (a script, a worker) sends no cookies: the CSRF
    // cookie is for browsers, and minting one on each scripted call costs for nothing.
    if (api && !header && !request.cookies[CSRF_COOKIE]) {
      reply.setCookie(CSRF_COOKIE, newCsrfToken(), { ...cookieOptions, maxAge: 365 * 24 * 3600 });
    }
    if (header && /^(Farm|Agent)\s/i.test(header)) return;
    if (header && /^Ponos\s/i.test(header)) {
      const match = /^Ponos\s+(\S+)$/i.exec(header);
      const user = match ? await userForTaskToken(app, match[1] as string) : null;
      if (!user) throw invalidToken();
      request.user = user;
      request.authMethod = 'task';
      return;
    }
    if (header) {
      const match = /^Token\s+(\S+)$/i.exec(header);
      const token = match?.[1];
      const user = token
        ? await callers.through(`token ${token}`, () => userForToken(app.db, token))
        : null;
      if (!user) throw invalidToken();
      request.user = user;
      request.authMethod = 'token';
      return;
    }
    const session = request.cookies[SESSION_COOKIE];
    const user = session
      ? await callers.through(`session ${session}`, () => userForSession(app.db, session))
      : null;
    // Only where it is wrong: an answer that crossed a login or a logout on its way back must
    // not undo what that answer set.
    if (api && request.cookies[SESSION_HINT_COOKIE] !== (user ? '1' : '0')) {
      hintSession(reply, !!user);
    }
    if (!user) {
      if (session) reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return;
    }
    if (UNSAFE.has(request.method)) {
      const cookie = request.cookies[CSRF_COOKIE] ?? '';
      const sent = request.headers[CSRF_HEADER];
      if (!cookie || typeof sent !== 'string' || !sameSecret(cookie, sent)) {
        throw permissionDenied('CSRF Failed: CSRF token missing or incorrect.');
      }
    }
    request.user = user;
    request.authMethod = 'session';
  });

  app.decorate('startSession', async (reply: FastifyReply, user: User) => {
    const value = await createSession(app.db, user.id);
    reply.setCookie(SESSION_COOKIE, value, {
      ...cookieOptions,
      httpOnly: true,
      maxAge: SESSION_MAX_AGE_S,
    });
    hintSession(reply, true);
  });

  app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
    const value = request.cookies[SESSION_COOKIE];
    if (value) await deleteSession(app.db, value);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    hintSession(reply, false);
  });
}

export function requireUser(request: FastifyRequest): User {
  if (!request.user) throw notAuthenticated();
  return request.user;
}

/** Verified e-mail, or a site admin, as the spec's "verified" visitor. */
export function requireVerified(request: FastifyRequest): User {
  const user = requireUser(request);
  if (!user.verified_email && !user.is_admin) {
    throw permissionDenied('You must verify your email address to perform this action.');
  }
  return user;
}
