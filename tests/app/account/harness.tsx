import { StrictMode, type ReactNode } from 'react';
import { createRoute } from '@tanstack/react-router';
import type { ServerInfo, User } from '@/api/types';
import {
  apiError,
  makeInfo,
  makeRoot,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
} from '../support/harness';

export { apiError, clearNotifications, json } from '../support/harness';

/** A call as the account tests compare it. */
export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export const SERVER_INFO = makeInfo({
  search: true,
  selection: true,
  signup: true,
  pdf_export: true,
  pagexml_export: true,
  docx_export: true,
  alto_export: true,
  csv_export: true,
});

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith('0b5a4c6e-7f1d-4c3b-9a2e-1d2c3b4a5f60', { display_name: 'Ada', ...overrides });
}

/**
 * Stands in for the server: handlers are keyed "METHOD /path/" (below /api/v1); a call with no
 * handler fails the test loudly with a 500 naming it.
 */
export function mockApi(handlers: Record<string, (call: Call) => Response | Promise<Response>>) {
  const calls: Call[] = [];
  stubFetch((call) => {
    calls.push({ method: call.method, path: call.path, body: call.body });
    const handler = handlers[`${call.method} ${call.path}`];
    if (!handler) {
      return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
    }
    return handler(call);
  });
  return {
    calls,
    /** The calls to one endpoint, e.g. callsTo('POST /user/login/'). */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}

interface RenderOptions {
  /** The route pattern the page is mounted at, e.g. "/user/reset/$uidb64/$token". */
  path: string;
  /** The URL the browser opens. */
  url: string;
  page: () => ReactNode;
  user?: User | null;
  info?: ServerInfo;
  strict?: boolean;
}

/** Mounts one page in a memory router, with server info and the current user in the cache. */
export function renderPage(options: RenderOptions) {
  const root = makeRoot();
  const page = createRoute({
    getParentRoute: () => root,
    path: options.path,
    component: options.page,
  });
  return renderRoutes(routesUnder(root, [page]), {
    url: options.url,
    info: options.info ?? SERVER_INFO,
    user: options.user,
    wrap: options.strict ? (ui) => <StrictMode>{ui}</StrictMode> : undefined,
  });
}
