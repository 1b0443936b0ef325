/** Timestamps are ISO-8601 UTC text everywhere (they sort as strings in both dialects). */
export function nowIso(): string {
  return new Date().toISOString();
}

export function isoIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
