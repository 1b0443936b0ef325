/**
 * Tiles sent as they are stored. The pyramid made at import holds each level as 512×512
 * JPEG-compressed TIFF tiles; when a IIIF request is exactly one whole stored tile at its own
 * size (what a viewer asks for, away from the right and bottom edges), the tile's JPEG data plus
 * the shared tables (TIFF's JPEGTables) is already the answer: no decoding, no encoding, no
 * cache file. bench/iiif.bench.ts measured a first tile at 10 ms rendered (open, decode, encode)
 * against 3 ms for IIPImage.
 *
 * Only what libvips writes is read: classic (not Big) TIFF, JPEG compression (7), YCbCr or grey
 * pixels. Anything else answers null and the tile is rendered as before.
 */
import fs from 'node:fs';
import { jpegQuality } from './jpegQuality';

export interface StoredLevel {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  offsets: number[];
  counts: number[];
  /** SOI, DQT and DHT segments, EOI: the tables every tile of the level leaves out. */
  tables: Buffer;
  /** The quality the level's tiles were saved at (from its luminance table). */
  quality: number;
}

const TAG = {
  width: 256,
  height: 257,
  compression: 259,
  photometric: 262,
  tileWidth: 322,
  tileHeight: 323,
  tileOffsets: 324,
  tileByteCounts: 325,
  jpegTables: 347,
} as const;
const JPEG = 7;
const GREY = [0, 1];
const YCBCR = 6;
/** Bytes per value of the TIFF field types met here: BYTE, ASCII, SHORT, LONG, UNDEFINED. */
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 7: 1 };

/** A JFIF APP0 segment: says a three-component JPEG is YCbCr, as TIFF's Photometric did. */
const JFIF = Buffer.from([
  0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00,
]);
const SOI = Buffer.from([0xff, 0xd8]);

async function readAt(handle: fs.promises.FileHandle, offset: number, length: number) {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset);
  if (bytesRead !== length) throw new Error('TIFF cut short');
  return buffer;
}

/** Every level of a libvips pyramid with JPEG tiles, in file order; null for anything else. */
export async function readStoredLevels(file: string): Promise<StoredLevel[] | null> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const header = await readAt(handle, 0, 8);
    const order = header.toString('latin1', 0, 2);
    if (order !== 'II' && order !== 'MM') return null;
    const little = order === 'II';
    const u16 = (b: Buffer, at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at));
    const u32 = (b: Buffer, at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
    // 43 is BigTIFF (8-byte offsets), written only past 4 GB: rendered instead.
    if (u16(header, 2) !== 42) return null;

    const levels: StoredLevel[] = [];
    const seen = new Set<number>();
    for (let ifd = u32(header, 4); ifd !== 0;) {
      if (seen.has(ifd) || seen.size > 64) return null;
      seen.add(ifd);
      const count = u16(await readAt(handle, ifd, 2), 0);
      const entries = await readAt(handle, ifd + 2, count * 12 + 4);
      const fields = new Map<number, number[] | Buffer>();
      for (let i = 0; i < count; i += 1) {
        const at = i * 12;
        const tag = u16(entries, at);
        const type = u16(entries, at + 2);
        const n = u32(entries, at + 4);
        const size = TYPE_SIZE[type];
        if (!size || !Object.values(TAG).includes(tag as never)) continue;
        const bytes = n * size;
        const data =
          bytes <= 4
            ? entries.subarray(at + 8, at + 8 + bytes)
            : await readAt(handle, u32(entries, at + 8), bytes);
        if (tag === TAG.jpegTables) {
          fields.set(tag, data);
        } else {
          const read = size === 2 ? u16 : size === 4 ? u32 : (b: Buffer, k: number) => b[k]!;
          fields.set(
            tag,
            Array.from({ length: n }, (_, k) => read(data, k * size)),
          );
        }
      }
      ifd = u32(entries, count * 12);

      const one = (tag: number) => (fields.get(tag) as number[] | undefined)?.[0];
      const tables = fields.get(TAG.jpegTables);
      const offsets = fields.get(TAG.tileOffsets) as number[] | undefined;
      const counts = fields.get(TAG.tileByteCounts) as number[] | undefined;
      const photometric = one(TAG.photometric) ?? -1;
      if (
        one(TAG.compression) !== JPEG ||
        !(GREY.includes(photometric) || photometric === YCBCR) ||
        !Buffer.isBuffer(tables) ||
        tables.length < 4 ||
        tables[0] !== 0xff ||
        tables[1] !== 0xd8 ||
        !offsets ||
        !counts ||
        offsets.length !== counts.length
      ) {
        return null;
      }
      const quality = await jpegQuality(tables);
      if (quality === null) return null;
      levels.push({
        width: one(TAG.width) ?? 0,
        height: one(TAG.height) ?? 0,
        tileWidth: one(TAG.tileWidth) ?? 0,
        tileHeight: one(TAG.tileHeight) ?? 0,
        offsets,
        counts,
        tables,
        quality,
      });
    }
    return levels.length > 0 && levels.every((level) => level.tileWidth > 0) ? levels : null;
  } finally {
    await handle.close();
  }
}

/**
 * The stored tile this rectangle of the level is: `whole` when its bounds are exactly the tile's;
 * not whole for a tile cut by the level's right or bottom edge, which is padded in the file (its
 * JPEG is larger than the answer and must be cropped). Null when the rectangle is no tile.
 */
export function storedTileIndex(
  level: StoredLevel,
  rect: { left: number; top: number; right: number; bottom: number },
): { index: number; whole: boolean } | null {
  const { left, top, right, bottom } = rect;
  const { tileWidth, tileHeight } = level;
  if (left % tileWidth !== 0 || top % tileHeight !== 0) return null;
  if (right !== Math.min(left + tileWidth, level.width)) return null;
  if (bottom !== Math.min(top + tileHeight, level.height)) return null;
  const across = Math.ceil(level.width / tileWidth);
  const index = (top / tileHeight) * across + left / tileWidth;
  if (index >= level.offsets.length) return null;
  return { index, whole: right - left === tileWidth && bottom - top === tileHeight };
}

/**
 * Pyramids recently read from, kept open: a tile is then one read, where opening and closing
 * made it three trips through libuv's pool. Few are kept (a viewer reads one page at a time),
 * by path and mtime (the directory read goes with that mtime); a removed pyramid's handle is
 * closed by closeStoredFile.
 */
const OPEN_FILES = 16;
const openFiles = new Map<string, Promise<fs.promises.FileHandle>>();

function close(handle: Promise<fs.promises.FileHandle>): void {
  // FileHandle.close() waits for the reads already started on it; later ones fail, and their
  // tile is rendered instead.
  void handle.then((h) => h.close()).catch(() => {});
}

function openFile(file: string, mtimeMs: number): Promise<fs.promises.FileHandle> {
  const key = `${mtimeMs}:${file}`;
  const known = openFiles.get(key);
  if (known) {
    openFiles.delete(key);
    openFiles.set(key, known);
    return known;
  }
  const opening = fs.promises.open(file, 'r');
  openFiles.set(key, opening);
  opening.catch(() => openFiles.delete(key));
  while (openFiles.size > OPEN_FILES) {
    const [oldest, handle] = openFiles.entries().next().value as [
      string,
      Promise<fs.promises.FileHandle>,
    ];
    openFiles.delete(oldest);
    close(handle);
  }
  return opening;
}

/** Lets go of a pyramid about to be removed, so its disk space is given back. */
export function closeStoredFile(file: string): void {
  for (const [key, handle] of openFiles) {
    if (key.slice(key.indexOf(':') + 1) === file) {
      openFiles.delete(key);
      close(handle);
    }
  }
}

/**
 * One stored tile as a JPEG file of its own: SOI, JFIF, the level's tables, the tile's data;
 * null when it cannot be read (the file closed or cut short), for the tile to be rendered.
 */
export async function readStoredTile(
  file: string,
  mtimeMs: number,
  level: StoredLevel,
  index: number,
): Promise<Buffer | null> {
  const data = await openFile(file, mtimeMs)
    .then((handle) => readAt(handle, level.offsets[index]!, level.counts[index]!))
    .catch(() => null);
  // A tile holds SOI … EOI without its tables; the tables hold SOI … EOI with nothing else.
  if (!data || data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  return Buffer.concat([SOI, JFIF, level.tables.subarray(2, -2), data.subarray(2)]);
}
