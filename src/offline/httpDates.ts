/**
 * Versions are HTTP dates (Last-Modified, If-Unmodified-Since), which count whole seconds.
 */

/** The later of two HTTP dates; either may be missing. */
export function later(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a || !b) return a ?? b ?? null;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * The version of what a list answered, for items that carry none of their own: the second
 * before the answer's Date. Every change before that second is in the answer, and a change
 * after it is dated later, so an edit based on it cannot pass over one unseen (a change made in
 * the answer's own second shows as a conflict, never as nothing).
 */
export function versionOfAnswer(date: string | null | undefined): string | null {
  const served = Date.parse(date ?? '');
  return Number.isNaN(served) ? null : new Date(served - 1000).toUTCString();
}

/** True when `a` falls in a second before `b`'s; false when either is missing or unreadable. */
export function earlier(a: string | null | undefined, b: string | null | undefined): boolean {
  const first = Date.parse(a ?? '');
  const second = Date.parse(b ?? '');
  if (Number.isNaN(first) || Number.isNaN(second)) return false;
  return Math.floor(first / 1000) < Math.floor(second / 1000);
}
