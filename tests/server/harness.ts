/**
 * Every server suite runs once on SQLite and once on PostgreSQL (when reachable; with
 * REQUIRE_POSTGRES=1 an unreachable PostgreSQL fails the run). Each app gets a fresh temporary
 * data dir, and on PostgreSQL a schema of its own, dropped afterwards.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { MailMessage } from '../../server/mail';
import {
  PG_URL,
  makeThrowawayApp,
  postgresAnswers,
  type DialectName,
  type ThrowawayApp,
} from './throwawayApp';

export type { DialectName };

/** The feature flags a test app reports: none of the suites' env names FOLIA_FEATURES. */
export const DEFAULT_FEATURES = {
  search: true,
  selection: true,
  signup: true,
  ingest: false,
  enterprise: false,
  pdf_export: true,
  pagexml_export: true,
  docx_export: true,
  alto_export: true,
  csv_export: true,
};

const pgAvailable = await postgresAnswers();
if (!pgAvailable && process.env.REQUIRE_POSTGRES === '1') {
  throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is unreachable at ${PG_URL}`);
}
export const DIALECTS: DialectName[] = pgAvailable ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestApp extends ThrowawayApp {
  /** Every mail the app sent, in order: the suites read links from them. */
  mails: MailMessage[];
}

export async function makeTestApp(
  dialect: DialectName,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const mails: MailMessage[] = [];
  const record = process.env.FOLIA_RECORD_RESPONSES;
  const throwaway = await makeThrowawayApp(dialect, {
    label: 'test',
    env,
    build: {
      mailer: { send: async (message) => void mails.push(message) },
      // Every answer of the suite, one JSON line each, for tests/server/openapi/ to check.
      ...(record
        ? { onApiResponse: (answer) => fs.appendFileSync(record, `${JSON.stringify(answer)}\n`) }
        : {}),
    },
  });
  return { ...throwaway, mails };
}

/** describe() once per dialect, with a fresh app for the whole block. */
export function describeEachDialect(
  name: string,
  body: (ctx: { t: () => TestApp; dialect: DialectName }) => void,
  env: Record<string, string> = {},
): void {
  for (const dialect of DIALECTS) {
    describe(`${name} [${dialect}]`, () => {
      let testApp: TestApp;
      beforeAll(async () => {
        testApp = await makeTestApp(dialect, env);
      });
      afterAll(async () => {
        await testApp?.close();
      });
      body({ t: () => testApp, dialect });
    });
  }
}

/**
 * A browser-like client: keeps cookies, sends the CSRF header on unsafe methods.
 * `as(token)` gives a script-like client using `Authorization: Token`.
 */
export class Client {
  private cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly token: string | null = null,
  ) {}

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const sendHeaders: Record<string, string> = { ...headers };
    if (this.token) sendHeaders.authorization = `Token ${this.token}`;
    if (this.cookies.size) {
      sendHeaders.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const csrf = this.cookies.get('arkindex.csrf');
    if (csrf && !('x-csrftoken' in headers)) sendHeaders['x-csrftoken'] = csrf;
    const options: InjectOptions = {
      method,
      url: url.startsWith('/') ? url : `/api/v1/${url}`,
      headers: sendHeaders,
    };
    if (body !== undefined) {
      if (typeof body === 'string') {
        options.payload = body;
        sendHeaders['content-type'] ??= 'application/json';
      } else {
        options.payload = body as InjectOptions['payload'];
      }
    }
    const response = await this.app.inject(options);
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  /** Prime the CSRF cookie the way the app does: by reading the server info first. */
  async prime(): Promise<this> {
    await this.request('GET', '/api/v1/');
    return this;
  }

  get = (url: string, headers?: Record<string, string>) =>
    this.request('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('POST', url, body, headers);
  patch = (url: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('PATCH', url, body, headers);
  put = (url: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('PUT', url, body, headers);
  delete = (url: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('DELETE', url, body, headers);

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
}

export interface TestUserOptions {
  email?: string;
  password?: string;
  admin?: boolean;
  verified?: boolean;
  displayName?: string;
}

/** Insert a user straight into the database (bypassing signup), for suites that need actors. */
export async function createTestUser(
  app: FastifyInstance,
  options: TestUserOptions = {},
): Promise<TestUser> {
  const { hashPassword, randomToken } = await import('../../server/auth/passwords');
  const id = randomUUID();
  const email = options.email ?? `user-${id.slice(0, 8)}@example.com`;
  const password = options.password ?? 'correct horse battery';
  const token = randomToken();
  const now = new Date().toISOString();
  await app.db
    .insertInto('users')
    .values({
      id,
      email,
      display_name: options.displayName ?? email.split('@')[0]!,
      password_hash: await hashPassword(password),
      is_admin: options.admin ? 1 : 0,
      verified_email: options.verified === false ? 0 : 1,
      can_manage_workers: 0,
      can_ingest: 0,
      auth_token: token,
      last_login: null,
      created: now,
      updated: now,
    })
    .execute();
  return { id, email, password, token };
}
