import { useRouterState } from '@tanstack/react-router';

/** Where to come back to after logging in: here, unless here is an account or error page. */
export function nextAfterLogin(href: string): string | undefined {
  return /^\/(user\/(login|register|logout|password_reset|reset)|errors\/)/.test(href)
    ? undefined
    : href;
}

/** The search of a link to login or register that brings the user back to this page. */
export function useLoginSearch(): { next?: string } {
  const href = useRouterState({ select: (state) => state.location.href });
  const next = nextAfterLogin(href);
  return next ? { next } : {};
}
