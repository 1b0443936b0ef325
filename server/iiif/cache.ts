/**
 * Disk cache of rendered IIIF outputs, <root>/<image id>/<key>.<format>. IIIF URLs are
 * immutable for an image, so entries never go stale; the key includes the stored file's mtime
 * in case a pyramid is ever rewritten. Entries are written to a temporary file and renamed, so
 * a reader never sees half a tile, and an uncached output asked for twice at once is rendered
 * once (the second request waits for the first). In front of the disk, the most recent outputs
 * are kept in memory (memoryTiles.ts) when the server gives room for them. Outputs that are a
 * stored tile as it is (storedTiles.ts) never go to the disk: the pyramid already holds them.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MemoryTiles } from './memoryTiles';

export const cacheStats = { hits: 0, memoryHits: 0, misses: 0 };

export class RenderCache {
  private readonly inflight = new Map<string, Promise<Buffer>>();

  constructor(
    readonly root: string,
    private readonly onWriteError: (error: unknown) => void = () => {},
    private readonly memory: MemoryTiles | null = null,
  ) {}

  file(imageId: string, key: string, extension: string): string {
    return path.join(this.root, imageId, `${key}.${extension}`);
  }

  async get(
    imageId: string,
    key: string,
    extension: string,
    render: () => Promise<Buffer>,
    stored?: () => Promise<Buffer | null>,
  ): Promise<Buffer> {
    const file = this.file(imageId, key, extension);
    const kept = this.memory?.get(file);
    if (kept) {
      cacheStats.memoryHits += 1;
      return kept;
    }
    // Read as it is from the pyramid, as cheap as from a cache file: kept in memory only.
    const direct = stored ? await stored() : null;
    if (direct) {
      this.memory?.set(file, direct);
      return direct;
    }
    const running = this.inflight.get(file);
    if (running) return running;
    const cached = await fs.promises.readFile(file).catch(() => null);
    if (cached) {
      cacheStats.hits += 1;
      this.memory?.set(file, cached);
      return cached;
    }
    // Checked again: another request may have started rendering while this one read the disk.
    const started = this.inflight.get(file);
    if (started) return started;
    cacheStats.misses += 1;
    const job = (async () => {
      const data = await render();
      await this.write(file, data).catch(this.onWriteError);
      this.memory?.set(file, data);
      return data;
    })();
    this.inflight.set(file, job);
    try {
      return await job;
    } finally {
      this.inflight.delete(file);
    }
  }

  private async write(file: string, data: Buffer): Promise<void> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await fs.promises.writeFile(temp, data);
      await fs.promises.rename(temp, file);
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
  }
}
