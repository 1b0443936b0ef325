/**
 * Conditional GET of a children list (api/arkindex-api.md §12, spec 001 §4 "Children
 * pagination"): Last-Modified is when a child was last added, removed, moved, renamed or
 * retyped (elements.children_updated, else the parent's creation), and If-Modified-Since
 * gets a 304 when nothing changed since.
 */
import type { Element } from '../../db/schema';

export interface LastModified {
  /** The HTTP date announced. */
  header: string;
  /** The change's time, in whole seconds since the epoch. */
  seconds: number;
}

export function childrenLastModified(
  element: Pick<Element, 'children_updated' | 'created'>,
  now: number = Date.now(),
): LastModified {
  const seconds = Math.floor(Date.parse(element.children_updated ?? element.created) / 1000);
  // HTTP dates count whole seconds: a change later in this same second would carry the date
  // already announced. Until the second is over, announce the one before, so the client's next
  // conditional request gets the list again rather than a 304 hiding that change.
  const announced = seconds >= Math.floor(now / 1000) ? seconds - 1 : seconds;
  return { header: new Date(announced * 1000).toUTCString(), seconds };
}

/** True when the client's copy, dated `ifModifiedSince`, is still the current list. */
export function isNotModified(
  ifModifiedSince: string | undefined,
  lastModified: LastModified,
  now: number = Date.now(),
): boolean {
  if (!ifModifiedSince) return false;
  const since = Date.parse(ifModifiedSince);
  // A date that cannot be read, or one in the future, is ignored as HTTP says.
  if (Number.isNaN(since) || since > now) return false;
  return lastModified.seconds <= Math.floor(since / 1000);
}
