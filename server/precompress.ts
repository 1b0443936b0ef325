/**
 * Brotli and gzip copies of the built app's text assets, made once at build time so the server
 * sends them as they are (@fastify/static's preCompressed) instead of compressing every answer:
 * a tablet on a slow link downloads the main script at a fifth of its size. Run by a Vite plugin
 * after every other plugin wrote its files (the service worker included).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Text formats; images, woff2 and the like are compressed already and gain nothing. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm|map|ttf|otf)$/i;
/** Below this, the headers weigh more than what compression saves. */
const MIN_BYTES = 1024;

export interface Precompressed {
  files: number;
  rawBytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

function listFiles(dir: string, into: string[]): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(full, into);
    else if (entry.isFile()) into.push(full);
  }
  return into;
}

export function brotli(data: Buffer): Buffer {
  return zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
}

export function gzip(data: Buffer): Buffer {
  return zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION });
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir`, each only when it
 * is smaller than the file (a copy that is not would be sent for nothing).
 */
export function precompressDir(dir: string): Precompressed {
  const totals: Precompressed = { files: 0, rawBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for (const file of listFiles(dir, [])) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = fs.readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    const br = brotli(data);
    const gz = gzip(data);
    if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
    if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
    totals.files += 1;
    totals.rawBytes += data.length;
    totals.brotliBytes += Math.min(br.length, data.length);
    totals.gzipBytes += Math.min(gz.length, data.length);
  }
  return totals;
}
