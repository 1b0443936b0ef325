/**
 * API answers compressed as the client accepts (brotli, else gzip): a project's element list of
 * several hundred kilobytes of JSON crosses a tablet's link in a tenth of the bytes. The built
 * app's files are compressed once at build time instead (server/precompress.ts), and sent as
 * they are: an answer that already has a Content-Encoding is left alone.
 */
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/**
 * Files sent as downloads: already compressed (model archives), or large and read with their
 * Content-Length for a progress bar (an export's SQLite file, a task's artifacts).
 */
const FILE_DOWNLOADS = [/\/modelversion\/:id\/download\/$/, /\/export\/:id\/$/, /\/artifact\/\*$/];

/** What compresses well: JSON (IIIF's JSON-LD too), text, CSV, XML, SVG, JavaScript. */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]*\+)?(?:json|xml)\b|application\/javascript\b|image\/svg\+xml\b)/;

/**
 * Compresses the API's answers and IIIF's (info.json; images are left as they are). The app's
 * files are not compressed on the fly: they have their copies made at build time, or are too
 * small to gain anything.
 */
export async function compressionPlugin(app: FastifyInstance, apiPrefix: string): Promise<void> {
  // Before @fastify/compress's own onRoute hook, which reads the option.
  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    const dynamic = url.startsWith(`${apiPrefix}/`) || url.startsWith('/iiif/');
    if (!dynamic || FILE_DOWNLOADS.some((pattern) => pattern.test(url))) route.compress = false;
  });
  await app.register(fastifyCompress, {
    global: true,
    // Request bodies are read as sent: no client of ours compresses them.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    // Under a kilobyte, the headers weigh more than what compression saves.
    threshold: 1024,
    customTypes: COMPRESSIBLE,
    // Quality 4: most of brotli's gain for a fraction of its time at the highest levels.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
