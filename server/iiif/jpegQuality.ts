/**
 * The quality a JPEG was saved at, estimated from its luminance quantization table the way
 * libjpeg scales its standard table (quality 50 = the table itself). The pyramid made at import
 * is then written at that quality at most: re-encoding a Q75 scan at Q90 only makes the file
 * larger (3.8× the source at Q90 for a typical page) without bringing back what was lost.
 */
import fs from 'node:fs';

/** libjpeg's standard luminance table (ITU T.81 Annex K), in the zigzag order files store. */
const STANDARD_LUMINANCE_ZIGZAG = [
  16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37,
  29, 40, 58, 51, 61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87,
  95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99,
];

/** Enough of a file to hold its headers: quantization tables come before the image data. */
const HEADER_BYTES = 256 * 1024;

/** The first luminance (id 0) quantization table of a JPEG, or null when there is none. */
export function luminanceTable(jpeg: Buffer): number[] | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // Start of scan or end of image: no table met before the data.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = jpeg.readUInt16BE(at + 2);
    const end = at + 2 + length;
    if (marker === 0xdb) {
      let table = at + 4;
      while (table < end) {
        const precision = jpeg[table]! >> 4;
        const id = jpeg[table]! & 0x0f;
        const size = precision ? 128 : 64;
        if (table + 1 + size > jpeg.length) return null;
        if (id === 0) {
          return Array.from({ length: 64 }, (_, i) =>
            precision ? jpeg.readUInt16BE(table + 1 + 2 * i) : jpeg[table + 1 + i]!,
          );
        }
        table += 1 + size;
      }
    }
    at = end;
  }
  return null;
}

/** The libjpeg quality (1–100) whose scaled standard table is closest to `table`. */
export function qualityOfTable(table: readonly number[]): number {
  const scale =
    table.reduce((sum, value, i) => sum + (value * 100) / STANDARD_LUMINANCE_ZIGZAG[i]!, 0) /
    table.length;
  const quality = scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
  return Math.min(100, Math.max(1, Math.round(quality)));
}

/** The quality a JPEG file or buffer was saved at; null for other formats or unreadable files. */
export async function jpegQuality(source: string | Buffer): Promise<number | null> {
  let header: Buffer;
  if (typeof source === 'string') {
    const file = await fs.promises.open(source, 'r').catch(() => null);
    if (!file) return null;
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
      header = buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } else {
    header = source;
  }
  const table = luminanceTable(header);
  return table ? qualityOfTable(table) : null;
}
