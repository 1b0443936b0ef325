import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db';
import type { Image } from '../db/schema';
import { createRemoteImage, storeImage } from '../services/images';
import type { ParsedCanvas } from './formats/types';
import type { ImportReport } from './report';

async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * The images of one import. A file already stored in the project (the same bytes imported
 * again, or a page described by both a PAGE and an ALTO file) is reused, not stored twice;
 * so is a remote image already referenced.
 */
export class ImportImages {
  private readonly byPath = new Map<string, Image>();
  private readonly byUrl = new Map<string, Image>();
  private pendingUrls = new Map<string, Image>();

  constructor(
    private readonly context: { db: Db; dataDir: string; jpegQuality?: number },
    private readonly corpusId: string,
    private readonly report: ImportReport,
  ) {}

  async local(file: string): Promise<Image> {
    const cached = this.byPath.get(file);
    if (cached) return cached;
    const hash = await fileHash(file);
    const existing = await this.context.db
      .selectFrom('images')
      .selectAll()
      .where('corpus_id', '=', this.corpusId)
      .where('hash', '=', hash)
      .where('path', 'is not', null)
      .executeTakeFirst();
    const image =
      existing ?? (await storeImage(this.context, { corpusId: this.corpusId, sourcePath: file }));
    this.byPath.set(file, image);
    this.report.images += 1;
    return image;
  }

  /** Inside the caller's transaction; commitRemote() once it has committed. */
  async remote(trx: Db, canvas: ParsedCanvas): Promise<Image> {
    const url = canvas.imageServiceUrl!.replace(/\/info\.json$/, '').replace(/\/+$/, '');
    const cached = this.byUrl.get(url) ?? this.pendingUrls.get(url);
    if (cached) return cached;
    const existing = await trx
      .selectFrom('images')
      .selectAll()
      .where('corpus_id', '=', this.corpusId)
      .where('url', '=', url)
      .executeTakeFirst();
    const image =
      existing ??
      (await createRemoteImage(
        { db: trx },
        { corpusId: this.corpusId, url, width: canvas.width, height: canvas.height },
      ));
    this.pendingUrls.set(url, image);
    return image;
  }

  commitRemote(): void {
    for (const [url, image] of this.pendingUrls) this.byUrl.set(url, image);
    this.report.images += this.pendingUrls.size;
    this.pendingUrls = new Map();
  }
}
