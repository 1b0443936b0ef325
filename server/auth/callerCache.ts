/**
 * Who a token or a session cookie names, kept for a moment: a page view asks for dozens of
 * IIIF tiles and list pages at once, each of which would otherwise read the same user again.
 * The same holds for what a caller may read (the IIIF routes keep which images a caller may
 * see): any answer that depends only on the caller and rows the API writes.
 *
 * Kept at most TTL_MS, and forgotten entirely after every write the API answers (a logout, a
 * password or token change, a user deactivated or made admin all are one), so within this
 * server a change is seen by the next request. A change made beside the server (the CLI on the
 * same database) is seen within TTL_MS.
 */
import type { User } from '../db/schema';

const TTL_MS = 2000;
const MAX_ENTRIES = 1000;

interface Entry<T> {
  value: T;
  until: number;
}

export class CallerCache<T = User | null> {
  private readonly entries = new Map<string, Entry<T>>();

  /** What was read for `key` moments ago (for a credential, null: no one), or undefined. */
  get(key: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, now = Date.now()): void {
    // Oldest first in a Map's order: past the bound, the oldest goes.
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, until: now + TTL_MS });
  }

  clear(): void {
    this.entries.clear();
  }

  /** Reads through the cache: `load` runs only for a key not kept. */
  async through(key: string, load: () => Promise<T>): Promise<T> {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const value = await load();
    this.set(key, value);
    return value;
  }
}
