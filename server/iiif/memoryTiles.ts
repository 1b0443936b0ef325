/**
 * The rendered IIIF outputs asked for most recently, kept in memory and shared by every request,
 * so a warm tile is sent without reading the disk cache. Bounded in bytes, the least recently
 * used going first (a Map iterates in insertion order: a hit is moved to the end). An output
 * larger than a quarter of the room (a full-size image) is not kept: it would push out hundreds
 * of tiles for one request that is rarely repeated.
 */
export class MemoryTiles {
  private readonly entries = new Map<string, Buffer>();
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes / 4) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.used -= previous.length;
    }
    this.entries.set(key, value);
    this.used += value.length;
    for (const [oldest, buffer] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.used -= buffer.length;
    }
  }
}
