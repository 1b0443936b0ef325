/**
 * IIIF tiles from Folia's server against IIPImage, on real page scans, side by side in one run.
 *
 * Folia runs as its own process (a throwaway SQLite database and data dir) and imports the
 * Bronod scans of /work/shared/data as a private project's images, so every tile request checks
 * the caller's rights as a viewer's would. IIPImage (`iipsrv` 1.1 from Debian's
 * iipimage-server) serves the very pyramidal TIFFs Folia made at import, so both read the same
 * file. Both get the same IIIF Image API 2 URLs, those OpenSeadragon asks for from Folia's
 * info.json (every tile of every zoom level), over one kept-open connection each, one request at
 * a time, through clients equally bare (bench/httpClient.ts, bench/fastcgiClient.ts).
 *
 * - first request of each tile: every tile of every page is asked for the first time on both
 *   sides (Folia's memory and disk caches and IIPImage's tile cache have never seen it), the
 *   side that goes first alternating from tile to tile; goal: Folia ≤ 1.5× IIPImage's time;
 * - warm tiles: the same tiles again, several rounds, alternating; goal: Folia ≥ 10× faster;
 *   nginx serving the same tiles as files is the ceiling, when installed, and a bare node:http
 *   process sending them from memory is the floor of any Node server;
 * - sizes: mean bytes per tile on each side, and disk per page.
 * Every figure is a median of per-pair ratios, beside each side's median time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { iiifCacheDir, imageFile, imagesDir, storeImage } from '../server/services/images';
import type { Image } from '../server/db/schema';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { FastCgiClient } from './fastcgiClient';
import { HttpClient } from './httpClient';
import {
  IIPSRV,
  NGINX,
  startBareNode,
  startIipsrv,
  startNginx,
  type PeerServer,
} from './peerServers';
import { seedProject, seedUser } from './seed';
import { median, stopBench } from './serverProcess';

const here = path.dirname(fileURLToPath(import.meta.url));
const PAGES_DIR = path.resolve(here, '../../shared/data/lectaurep-bronod/bronod1');
const PAGES = ['0001.jpg', '0005.jpg', '0052.jpg'];
const WARM_ROUNDS = 5;
const MEMORY_MB = 64;
/** FOLIA_IIIF_JPEG_QUALITY for Folia's side (its pyramids and outputs); the server's default. */
const QUALITY = process.env.IIIF_BENCH_QUALITY;

interface Tile {
  /** The IIIF path after the identifier: region/size/rotation/quality.format */
  path: string;
  /** A whole 512×512 tile of its level, not one cut by the image's right or bottom edge. */
  whole: boolean;
}

/** The tiles OpenSeadragon asks for from an info.json with one tile size (IIIF Image API 2). */
function viewerTiles(info: {
  width: number;
  height: number;
  tiles: { width: number; scaleFactors: number[] }[];
}): Tile[] {
  const tiles: Tile[] = [];
  const size = info.tiles[0]!.width;
  for (const factor of info.tiles[0]!.scaleFactors) {
    const step = size * factor;
    for (let y = 0; y < info.height; y += step) {
      for (let x = 0; x < info.width; x += step) {
        const w = Math.min(step, info.width - x);
        const h = Math.min(step, info.height - y);
        const whole = x === 0 && y === 0 && w === info.width && h === info.height;
        const region = whole ? 'full' : `${x},${y},${w},${h}`;
        tiles.push({
          path: `${region}/${Math.ceil(w / factor)},/0/default.jpg`,
          whole: Math.ceil(w / factor) === size && Math.ceil(h / factor) === size,
        });
      }
    }
  }
  return tiles;
}

interface Side {
  name: string;
  /** Asks for one tile; its body. */
  get(image: number, tile: Tile): Promise<Buffer>;
}

async function timed(side: Side, image: number, tile: Tile): Promise<[number, Buffer]> {
  const t0 = performance.now();
  const body = await side.get(image, tile);
  return [performance.now() - t0, body];
}

interface Run {
  ms: number[][];
  bytes: number[][];
}

/**
 * Each (image, tile) asked once per round of every side, the side that goes first turning from
 * one tile to the next, so neither side always finds the file in the page cache the other warmed.
 */
async function alternate(
  sides: Side[],
  work: { image: number; tile: Tile }[],
  rounds: number,
): Promise<Run> {
  const run: Run = { ms: sides.map(() => []), bytes: sides.map(() => []) };
  let turn = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (const { image, tile } of work) {
      for (let k = 0; k < sides.length; k += 1) {
        const index = (turn + k) % sides.length;
        const [ms, body] = await timed(sides[index]!, image, tile);
        run.ms[index]!.push(ms);
        run.bytes[index]!.push(body.length);
      }
      turn += 1;
    }
  }
  return run;
}

const pairRatios = (a: number[], b: number[]) => a.map((value, i) => value / b[i]!);
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

function duBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((name) => fs.statSync(path.join(dir, name)))
    .filter((stat) => stat.isFile())
    .reduce((sum, stat) => sum + stat.size, 0);
}

export async function run(): Promise<void> {
  if (!fs.existsSync(IIPSRV)) {
    console.log('skipped: iipimage-server not installed (apt-get install -y iipimage-server)');
    return;
  }
  const sources = PAGES.map((name) => path.join(PAGES_DIR, name)).filter((file) =>
    fs.existsSync(file),
  );
  if (sources.length === 0) {
    console.log(`skipped: no page scans in ${PAGES_DIR}`);
    return;
  }
  const throwaway = await makeThrowawayApp('sqlite', {
    label: 'bench-iiif',
    env: {
      FOLIA_IIIF_MEMORY_MB: String(MEMORY_MB),
      ...(QUALITY ? { FOLIA_IIIF_JPEG_QUALITY: QUALITY } : {}),
    },
  });
  let server: ChildServer | null = null;
  const peers: PeerServer[] = [];
  const clients: { close(): void }[] = [];
  try {
    const { app, config } = throwaway;
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Tiles');
    const images: Image[] = [];
    for (const source of sources) {
      const t0 = performance.now();
      const image = await storeImage(app, { corpusId, sourcePath: source });
      const stored = fs.statSync(imageFile(config.dataDir, image)!).size;
      console.log(
        `${path.basename(source)}: ${image.width}×${image.height}, ${mb(fs.statSync(source).size)}` +
          ` → pyramid ${mb(stored)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      images.push(image);
    }

    server = await startChildServer(config);
    const folia = new HttpClient('127.0.0.1', Number(new URL(server.url).port), user.headers);
    clients.push(folia);
    const iip = await startIipsrv(imagesDir(config.dataDir), MEMORY_MB);
    peers.push(iip);
    const iipClient = new FastCgiClient('127.0.0.1', iip.port);
    clients.push(iipClient);

    const check = (what: string, status: number, body: Buffer) => {
      if (status !== 200) throw new Error(`${what}: ${status} ${body.subarray(0, 200)}`);
      return body;
    };
    const foliaSide: Side = {
      name: 'Folia',
      async get(image, tile) {
        const url = `/iiif/${images[image]!.id}/${tile.path}`;
        const response = await folia.get(url);
        return check(`Folia ${url}`, response.status, response.body);
      },
    };
    const iipSide: Side = {
      name: 'IIPImage',
      async get(image, tile) {
        const url = `/iiif/${images[image]!.path}/${tile.path}`;
        const response = await iipClient.get(url);
        return check(`IIPImage ${url}`, response.status, response.body);
      },
    };

    const tilesOf = [];
    for (const image of images) {
      const response = await folia.get(`/iiif/${image.id}/info.json`);
      tilesOf.push(
        viewerTiles(JSON.parse(check('info.json', response.status, response.body).toString())),
      );
    }
    const work = tilesOf.flatMap((tiles, image) => tiles.map((tile) => ({ image, tile })));
    console.log(
      `\n${work.length} tiles (${tilesOf[0]!.length} a page, every zoom level of ${images.length} pages),` +
        ' one request at a time on each side, sides alternated tile by tile\n',
    );

    // (b) First request of each tile: neither side has seen any of these tiles.
    const cold = alternate([foliaSide, iipSide], work, 1);
    const first = await cold;
    const coldRatio = median(pairRatios(first.ms[0]!, first.ms[1]!));
    console.log(
      `first request of a tile: Folia ${ms(median(first.ms[0]!))}, IIPImage ` +
        `${ms(median(first.ms[1]!))} (medians); Folia / IIPImage, median of pairs: ` +
        `${coldRatio.toFixed(2)}× (goal ≤ 1.5×: ${met(coldRatio <= 1.5)})`,
    );

    for (const whole of [true, false]) {
      const pairs = work
        .map((item, i) => [item.tile.whole, i] as const)
        .filter(([w]) => w === whole);
      const pick = (values: number[]) => pairs.map(([, i]) => values[i]!);
      console.log(
        `  ${whole ? 'whole tiles' : 'tiles cut by the right or bottom edge'} (${pairs.length}): ` +
          `Folia ${ms(median(pick(first.ms[0]!)))}, IIPImage ${ms(median(pick(first.ms[1]!)))}; ` +
          `median of pairs ${median(pairRatios(pick(first.ms[0]!), pick(first.ms[1]!))).toFixed(2)}×`,
      );
    }

    // The same tiles as static files, for nginx: written from Folia's own answers.
    const staticRoot = path.join(config.dataDir, 'static-tiles');
    for (const { image, tile } of work) {
      const file = path.join(staticRoot, images[image]!.id, tile.path);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, await foliaSide.get(image, tile));
    }
    const sides = [foliaSide, iipSide];
    const staticSide = (name: string, port: number): Side => {
      const client = new HttpClient('127.0.0.1', port);
      clients.push(client);
      return {
        name,
        async get(image, tile) {
          const url = `/${images[image]!.id}/${tile.path}`;
          const response = await client.get(url);
          return check(`${name} ${url}`, response.status, response.body);
        },
      };
    };
    const nginxAt = fs.existsSync(NGINX) ? sides.length : -1;
    if (nginxAt >= 0) {
      const nginx = await startNginx(staticRoot, path.join(config.dataDir, 'nginx'));
      peers.push(nginx);
      sides.push(staticSide('nginx', nginx.port));
    }
    const bare = await startBareNode(staticRoot);
    peers.push(bare);
    const bareAt = sides.length;
    sides.push(staticSide('bare Node', bare.port));

    // (a) Warm tiles: every tile has been asked for at least once on each side.
    const warm = await alternate(sides, work, WARM_ROUNDS);
    const warmSpeedup = median(pairRatios(warm.ms[1]!, warm.ms[0]!));
    const perSecond = (times: number[]) => (times.length / mean(times)) * (1000 / times.length);
    const against = (at: number) =>
      `${ms(median(warm.ms[at]!))} (${perSecond(warm.ms[at]!).toFixed(0)}/s); Folia / it, ` +
      `median of pairs: ${median(pairRatios(warm.ms[0]!, warm.ms[at]!)).toFixed(2)}×; ` +
      `IIPImage / it: ${median(pairRatios(warm.ms[1]!, warm.ms[at]!)).toFixed(1)}×`;
    console.log(
      `warm tile (${WARM_ROUNDS} rounds): Folia ${ms(median(warm.ms[0]!))} ` +
        `(${perSecond(warm.ms[0]!).toFixed(0)}/s), IIPImage ${ms(median(warm.ms[1]!))} ` +
        `(${perSecond(warm.ms[1]!).toFixed(0)}/s); IIPImage / Folia, median of pairs: ` +
        `${warmSpeedup.toFixed(1)}× (goal ≥ 10×: ${met(warmSpeedup >= 10)})`,
    );
    if (nginxAt >= 0)
      console.log(`  ceiling: nginx serving the same tiles as files ${against(nginxAt)}`);
    else console.log('  ceiling skipped: nginx not installed (apt-get install -y nginx-light)');
    console.log(
      `  Node's floor: a bare node:http process sending the same tiles from memory ${against(bareAt)}`,
    );
    const bareSpeedup = median(pairRatios(warm.ms[1]!, warm.ms[bareAt]!));
    if (!(warmSpeedup >= 10) && bareSpeedup < 10) {
      console.log(
        `  the goal is past what a Node process reaches here: sending bytes it holds, with no ` +
          `work of its own, Node is ${bareSpeedup.toFixed(1)}× IIPImage; 10× would need a warm ` +
          `tile in ${ms(median(warm.ms[1]!) / 10)}, under Node's ${ms(median(warm.ms[bareAt]!))}`,
      );
    }

    // (c) Sizes: the same tile list on both sides, and what a page costs on disk.
    const foliaBytes = mean(first.bytes[0]!);
    const iipBytes = mean(first.bytes[1]!);
    console.log(
      `\nmean bytes per tile: Folia ${kib(foliaBytes)}, IIPImage ${kib(iipBytes)} ` +
        `(Folia / IIPImage ${(foliaBytes / iipBytes).toFixed(2)}×)`,
    );
    const sourceBytes = mean(sources.map((file) => fs.statSync(file).size));
    const pyramidBytes = mean(
      images.map((image) => fs.statSync(imageFile(config.dataDir, image)!).size),
    );
    const cacheBytes = mean(images.map((image) => duBytes(iiifCacheDir(config.dataDir, image.id))));
    console.log(
      `disk per page (mean of ${images.length}): source JPEG ${mb(sourceBytes)}; Folia's ` +
        `pyramid ${mb(pyramidBytes)} (${(pyramidBytes / sourceBytes).toFixed(2)}× the source) ` +
        `+ disk cache after every tile ${mb(cacheBytes)} = ` +
        `${((pyramidBytes + cacheBytes) / sourceBytes).toFixed(2)}× the source; IIPImage reads ` +
        'the same pyramid and keeps nothing on disk',
    );
    console.log(
      `Folia's JPEG quality ${config.iiifJpegQuality} (FOLIA_IIIF_JPEG_QUALITY; ` +
        "IIIF_BENCH_QUALITY=75 measures it at IIPImage's), IIPImage's 75",
    );
  } finally {
    for (const client of clients) client.close();
    for (const peer of peers) await peer.stop();
    await stopBench(server, throwaway);
  }
}
