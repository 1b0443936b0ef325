/**
 * Conditional writes (RFC 9110 §13.1.4): an edit made offline carries, as If-Unmodified-Since,
 * the Last-Modified of the version it was based on. When the entity changed since, the edit is
 * refused with 412 and the current version, so the user chooses; nothing is overwritten
 * silently. HTTP dates count whole seconds, so every change moves the version into a later
 * second (versions.ts): one made in the same second as the version read is still told apart.
 */
import { ApiError } from './errors';

export function lastModifiedHeader(updatedIso: string): string {
  return new Date(Math.floor(Date.parse(updatedIso) / 1000) * 1000).toUTCString();
}

/** True when the entity changed after the date the client's edit was based on. */
export function changedSince(ifUnmodifiedSince: string | undefined, updatedIso: string): boolean {
  if (!ifUnmodifiedSince) return false;
  const since = Date.parse(ifUnmodifiedSince);
  // An unreadable date is ignored, as HTTP says of conditional headers it cannot parse.
  if (Number.isNaN(since)) return false;
  return Math.floor(Date.parse(updatedIso) / 1000) > Math.floor(since / 1000);
}

export function preconditionFailed(detail: string, current: unknown, updatedIso: string): ApiError {
  return new ApiError(412, 'client_error', [{ code: 'precondition_failed', detail, attr: null }], {
    current,
    headers: { 'last-modified': lastModifiedHeader(updatedIso) },
  });
}

/**
 * A list of editable entities (transcriptions, metadata) answers as Last-Modified the latest
 * change among those listed: no entity listed changed after it, so a client may base an edit
 * of any of them on it (If-Unmodified-Since), as it does on a single read's Last-Modified.
 * `no-cache` keeps browsers from reusing the list on the strength of that date.
 */
export function listedVersion(
  reply: { header(name: string, value: string): unknown },
  rows: readonly { updated: string }[],
): void {
  reply.header('cache-control', 'private, no-cache');
  if (rows.length === 0) return;
  const latest = rows.reduce((max, row) => (row.updated > max ? row.updated : max), '');
  reply.header('last-modified', lastModifiedHeader(latest));
}
