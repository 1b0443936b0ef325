/**
 * IIIF tile serving on a 5680×4180 page, side by side: tiles rendered on demand from the stored
 * pyramidal TIFF (cold: cache emptied), the same tiles from the disk cache, and the same tiles
 * pre-cut with sharp's tile() and served as static files (@fastify/static, and a bare fs.readFile
 * route). Also the one-off costs: storing (converting) the page, pre-cutting every tile, and
 * cutting a tile from the original JPEG without a pyramid.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import sharp from 'sharp';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { iiifCacheDir, storeImage } from '../server/services/images';
import { measure, printTable, type Figure } from './measure';

const here = path.dirname(fileURLToPath(import.meta.url));
const REAL_PAGE = path.resolve(here, '../../shared/data/lectaurep-bronod/bronod1/0001.jpg');

/** A stand-in page when the shared data is absent: paper-like noise, so JPEG has work to do. */
async function generatedPage(file: string): Promise<void> {
  const width = 5680;
  const height = 4180;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 42;
  for (let i = 0; i < raw.length; i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = (i / 3) % width;
    const ink = (x >> 5) % 7 === 0 && seed % 3 === 0 ? 120 : 0;
    const v = 200 + (seed % 30) - ink;
    raw[i] = v;
    raw[i + 1] = v - 10;
    raw[i + 2] = v - 40;
  }
  await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toFile(file);
}

function listFiles(root: string, suffix: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((name) => name.endsWith(suffix))
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

function figureOf(label: string, times: number[], totalMs: number): Figure {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    label,
    runs: times.length,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    perSecond: (times.length / totalMs) * 1000,
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

export async function run(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-bench-iiif-'));
  const defaultConcurrency = sharp.concurrency();
  const app = await buildApp({
    ...loadConfig({ FOLIA_DATA_DIR: path.join(work, 'data'), FOLIA_LOG: '0' }),
    distDir: path.join(work, 'none'),
  });
  const files = Fastify();
  try {
    let source = REAL_PAGE;
    if (!fs.existsSync(source)) {
      source = path.join(work, 'page.jpg');
      await generatedPage(source);
      console.log('(shared page absent: using a generated 5680×4180 JPEG)');
    }
    const meta = await sharp(source).metadata();
    console.log(
      `page: ${path.basename(source)}, ${meta.width}×${meta.height}, ${fs.statSync(source).size} bytes`,
    );

    // One-off costs, under libvips thread counts 1 and 2 (sharp.concurrency is global).
    console.log(`\nsharp.concurrency() default here: ${defaultConcurrency}`);
    let imageId = '';
    for (const threads of [1, 2]) {
      sharp.concurrency(threads);
      const runs: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const [image, ms] = await timed(() =>
          storeImage(app, { corpusId: null, sourcePath: source }),
        );
        imageId = image.id;
        runs.push(ms);
      }
      runs.sort((a, b) => a - b);
      console.log(
        `store (convert to pyramidal TIFF), concurrency ${threads}: median ${runs[1]!.toFixed(0)} ms of 3`,
      );
    }
    sharp.concurrency(defaultConcurrency);
    const stored = fs.statSync(
      path.join(work, 'data/images', imageId.slice(0, 2), `${imageId}.tif`),
    );
    console.log(`pyramidal TIFF: ${stored.size} bytes`);

    const staticRoot = path.join(work, 'static');
    const [, tileMs] = await timed(() =>
      sharp(source)
        .jpeg({ quality: 85 })
        .tile({ size: 512, layout: 'iiif', id: 'static' })
        .toFile(path.join(staticRoot, 'page')),
    );
    const tiles = listFiles(path.join(staticRoot, 'page'), 'default.jpg');
    console.log(
      `pre-cut every tile with sharp tile(): ${tileMs.toFixed(0)} ms for ${tiles.length} tiles`,
    );

    // The same tile URLs a viewer asks for (all zoom levels), against each server.
    const iiifUrl = (tile: string) => `/iiif/${imageId}/${tile}`;
    const cacheDir = iiifCacheDir(app.config.dataDir, imageId);
    const cold = async (label: string, parallel: number, rounds: number): Promise<Figure> => {
      const times: number[] = [];
      let total = 0;
      for (let round = 0; round < rounds; round += 1) {
        fs.rmSync(cacheDir, { recursive: true, force: true });
        let next = 0;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: parallel }, async () => {
            while (next < tiles.length) {
              const tile = tiles[next++]!;
              const t0 = performance.now();
              const response = await app.inject({ url: iiifUrl(tile) });
              if (response.statusCode !== 200) throw new Error(`${tile}: ${response.statusCode}`);
              times.push(performance.now() - t0);
            }
          }),
        );
        total += performance.now() - started;
      }
      return figureOf(label, times, total);
    };

    const figures: Figure[] = [];
    await cold('warm-up', 1, 1);
    const coldFigure = await cold('IIIF cold (render + cache write), 1 at a time', 1, 3);
    figures.push(coldFigure);
    for (const threads of [1, 2]) {
      sharp.concurrency(threads);
      figures.push(await cold(`IIIF cold, 4 in flight, sharp.concurrency ${threads}`, 4, 3));
    }
    sharp.concurrency(defaultConcurrency);

    let i = 0;
    const cachedFigure = await measure('IIIF cached (disk cache)', tiles.length * 5, async () =>
      app.inject({ url: iiifUrl(tiles[i++ % tiles.length]!) }),
    );
    figures.push(cachedFigure);
    let j = 0;
    const etags = new Map<string, string>();
    for (const tile of tiles) {
      etags.set(tile, (await app.inject({ url: iiifUrl(tile) })).headers.etag as string);
    }
    figures.push(
      await measure('IIIF revalidation (If-None-Match → 304)', tiles.length * 5, async () => {
        const tile = tiles[j++ % tiles.length]!;
        return app.inject({ url: iiifUrl(tile), headers: { 'if-none-match': etags.get(tile)! } });
      }),
    );

    await files.register(fastifyStatic, {
      root: path.join(staticRoot, 'page'),
      prefix: '/static/',
    });
    files.get<{ Params: { '*': string } }>('/fs/*', async (request, reply) =>
      reply
        .type('image/jpeg')
        .send(await fs.promises.readFile(path.join(staticRoot, 'page', request.params['*']))),
    );
    await files.ready();
    let k = 0;
    const staticFigure = await measure(
      'static files (@fastify/static)',
      tiles.length * 5,
      async () => {
        const response = await files.inject({ url: `/static/${tiles[k++ % tiles.length]!}` });
        if (response.statusCode !== 200) throw new Error(`static ${response.statusCode}`);
      },
    );
    figures.push(staticFigure);
    let m = 0;
    const fsFigure = await measure('static files (fs.readFile route)', tiles.length * 5, async () =>
      files.inject({ url: `/fs/${tiles[m++ % tiles.length]!}` }),
    );
    figures.push(fsFigure);

    // Without a pyramid: every full-resolution tile decodes the whole JPEG.
    const fullTiles = tiles.filter((tile) => /^\d+,\d+,512,512\/512,/.test(tile));
    let n = 0;
    figures.push(
      await measure('no pyramid: tile cut from the JPEG (sharp)', 12, async () => {
        const [x, y] = fullTiles[n++ % fullTiles.length]!.split(',').map(Number) as [
          number,
          number,
        ];
        return sharp(source)
          .extract({ left: x, top: y, width: 512, height: 512 })
          .jpeg({ quality: 85 })
          .toBuffer();
      }),
    );

    console.log();
    printTable(figures);
    const ratio = (a: Figure, b: Figure) => (a.perSecond / b.perSecond).toFixed(2);
    console.log(
      `\n${tiles.length} distinct tiles (all zoom levels); ratios of requests per second:`,
    );
    console.log(`  IIIF cached / static (@fastify/static): ${ratio(cachedFigure, staticFigure)}×`);
    console.log(`  IIIF cached / static (fs.readFile):     ${ratio(cachedFigure, fsFigure)}×`);
    console.log(`  IIIF cold   / IIIF cached:              ${ratio(coldFigure, cachedFigure)}×`);
    console.log(`  IIIF cold   / static (@fastify/static): ${ratio(coldFigure, staticFigure)}×`);
    const naive = figures[figures.length - 1]!;
    console.log(
      `  cold tile from the pyramid vs from the JPEG (median time): ${(naive.medianMs / coldFigure.medianMs).toFixed(1)}× faster`,
    );
  } finally {
    sharp.concurrency(defaultConcurrency);
    await files.close();
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
