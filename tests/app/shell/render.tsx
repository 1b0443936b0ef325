import './domStubs';
import type { ReactNode } from 'react';
import { Outlet, createRootRoute, createRoute } from '@tanstack/react-router';
import { renderRoutes, type Seed } from '../support/harness';

export { seededQueryClient, type Seed } from '../support/harness';

/**
 * Renders `ui` on every path of a throw-away router, so the shell's links resolve and
 * `useRouterState` answers, without loading the app's real routes.
 */
export function renderInRouter(ui: ReactNode, seed: Seed & { path?: string } = {}) {
  const { path = '/', ...rest } = seed;
  const root = createRootRoute({
    component: () => (
      <>
        {ui}
        <Outlet />
      </>
    ),
  });
  const anyPath = createRoute({ getParentRoute: () => root, path: '$', component: () => null });
  return renderRoutes(root.addChildren([anyPath]), { url: path, ...rest });
}

/** A fetch stub that answers each call with the next of the given responses. */
export function fetchReplies(...replies: { status: number; body?: unknown }[]) {
  const calls: { url: string; method: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method ?? 'GET' });
    const next = replies.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
      status: next.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, calls };
}
