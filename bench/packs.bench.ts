/**
 * "Make available offline" on a folder of 20 real pages, at each image detail the dialog offers
 * (thumbnails only, screen size, full resolution), side by side in one run: how long the
 * download takes, how many bytes it stores and at what rate, and the size the dialog announced
 * beforehand next to the size stored, since that estimate is what a user decides on. Also the
 * time to open each page's stored data with the network cut.
 *
 * Everything is the real path: the API and IIIF server listening on a free port (SQLite, a
 * throwaway data dir), pages imported with the project's importer from the shared corpus (PAGE
 * XML with regions and lines), and src/offline/packs.ts bundled with Vite's build API and run in
 * Chromium on the server's origin with a logged-in session, as the dialog calls it (planPack,
 * estimatePack, runPack, with the cards' thumbnails and this screen's edge). Each detail starts
 * from the same state: a new browser profile on disk (IndexedDB and the Cache API write to disk
 * as on a device, unlike an incognito context) and the server's tile cache emptied, so every
 * tile is rendered from its pyramid as on a first download. A last row downloads full
 * resolution again with those tiles already rendered, which tells the server's share of the
 * time from the browser's. No service worker runs: the pack's requests go past it uncached
 * anyway (cache 'no-store').
 *
 * The shared corpus has three spreads of one register (5680×4180 JPEG, 3.5-3.9 MB each), and the
 * importer stores an image met twice only once; so the 20 pages cycle through the three spreads,
 * each copy made distinct by a JPEG comment (same pixels, so the same tiles and tile sizes), in a
 * temporary folder outside the repository.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { runImport } from '../server/imports/execute';
import { insertCorpus } from '../server/services/corpora';
import { iiifCacheDir } from '../server/services/images';
import { createUser } from '../server/services/users';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { bundleForPage, CHROMIUM, KEEP_NAMES_SCRIPT } from './bundle';

const PAGES = 20;
const SET = path.join(SHARED_DATA_DIR, 'lectaurep-bronod', 'bronod1');
const SPREADS = ['0001', '0005', '0052'];
type Zoom = 'thumbnail' | 'screen' | 'full';
/**
 * Each detail from a cold server, then full resolution again with every tile already rendered
 * and cached on the server: the difference is the server's share of the cold download.
 */
const CASES: { label: string; zoom: Zoom; coldServer: boolean }[] = [
  { label: 'thumbnail', zoom: 'thumbnail', coldServer: true },
  { label: 'screen', zoom: 'screen', coldServer: true },
  { label: 'full', zoom: 'full', coldServer: true },
  { label: 'full, server tiles cached', zoom: 'full', coldServer: false },
];
/** A desktop screen: the "screen size" detail stops at the first level this long. */
const SCREEN = { width: 1920, height: 1080 };
const EMAIL = 'packs-bench@example.com';
const PASSWORD = 'reading room 1789 bench';

// The app's own thumbnail address and screen edge, so the pack holds what the dialog's would.
const ENTRY = `
import { api } from '@/api/client';
import { thumbnailUrl } from '@/components/ElementCard';
import { screenEdge } from '@/features/packs/usePackDownload';
import { localDb } from '@/offline/db';
import { readElement } from '@/offline/elementReads';
import { PACK_CACHE, estimatePack, packRequests, planPack, readStorage, runPack } from '@/offline/packs';
import { readAllZones } from '@/offline/zoneReads';
export { api, thumbnailUrl, screenEdge, localDb, readElement, PACK_CACHE, estimatePack, packRequests, planPack, readStorage, runPack, readAllZones };
`;

const bundle = () => bundleForPage(ENTRY, 'Packs');

/**
 * 20 pages for the importer: PAGE XML and its image, the image's bytes made unique by a JPEG
 * comment segment right after the start-of-image marker.
 */
function preparePages(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < PAGES; i += 1) {
    const spread = SPREADS[i % SPREADS.length]!;
    const name = `p${String(i + 1).padStart(2, '0')}`;
    const jpeg = fs.readFileSync(path.join(SET, `${spread}.jpg`));
    const text = Buffer.from(`folia packs bench, page ${name} from ${spread}.jpg`);
    const comment = Buffer.alloc(4);
    comment.writeUInt16BE(0xfffe, 0);
    comment.writeUInt16BE(text.length + 2, 2);
    fs.writeFileSync(
      path.join(dir, `${name}.jpg`),
      Buffer.concat([jpeg.subarray(0, 2), comment, text, jpeg.subarray(2)]),
    );
    const xml = fs.readFileSync(path.join(SET, 'page', `${spread}.xml`), 'utf8');
    fs.writeFileSync(
      path.join(dir, `${name}.xml`),
      xml.replace(/imageFilename="[^"]*"/, `imageFilename="${name}.jpg"`),
    );
  }
}

/**
 * The bits of the page and of the bundle this file touches, typed here because the benchmarks
 * compile without the DOM library (they run under Node; only the page* functions run in the
 * browser).
 */
interface PlanImage {
  image: { id: string };
}
interface Plan {
  images: PlanImage[];
  thumbnails: string[];
  zoneOwners: string[];
}
interface Progress {
  phase: 'listing' | 'elements' | 'images';
}
interface CachedResponse {
  blob(): Promise<{ size: number }>;
}
interface PacksModule {
  api<T>(path: string, options?: { method?: 'POST'; body?: unknown }): Promise<T>;
  thumbnailUrl(item: unknown): string | null;
  screenEdge(): number;
  localDb: unknown;
  readElement(
    db: unknown,
    id: string,
    options: { online: boolean },
  ): Promise<{ zone: { image: { id: string } } | null }>;
  readAllZones(db: unknown, id: string, options: { online: boolean }): Promise<unknown[]>;
  PACK_CACHE: string;
  planPack(
    root: unknown,
    options: { thumbnailOf: (item: unknown) => string | null },
  ): Promise<Plan>;
  estimatePack(
    plan: Plan,
    zoom: Zoom,
    screenEdge: number,
  ): { elements: number; images: number; tiles: number; bytes: number };
  packRequests(
    plan: Pick<Plan, 'images' | 'thumbnails'>,
    zoom: Zoom,
    screenEdge: number,
  ): { url: string }[];
  runPack(
    plan: Plan,
    zoom: Zoom,
    options: {
      db: unknown;
      caches: unknown;
      screenEdge: number;
      onProgress: (progress: Progress) => void;
    },
  ): Promise<{
    pack: { elementCount: number; tileCount: number; bytes: number; status: string };
    failed: number;
    unreachable: boolean;
  }>;
  readStorage(): Promise<{ usage: number | null; quota: number | null }>;
}
interface PageGlobals {
  Packs: PacksModule;
  caches: {
    open(name: string): Promise<{
      match(url: string, options: { ignoreVary: boolean }): Promise<CachedResponse | undefined>;
    }>;
  };
  benchPlan?: Plan;
}

/** Runs in the page: a session as the login form makes it (CSRF cookie first). */
async function pageLogIn(args: { email: string; password: string }): Promise<void> {
  const { Packs } = globalThis as unknown as PageGlobals;
  await Packs.api('/user/').catch(() => null);
  await Packs.api('/user/login/', { method: 'POST', body: args });
}

/** Runs in the page: the dialog's steps, timed; the plan is kept for pageOpen. */
async function pageDownload(args: { folderId: string; zoom: Zoom }) {
  const page = globalThis as unknown as PageGlobals;
  const { Packs } = page;
  const t0 = performance.now();
  const root = await Packs.api(`/element/${args.folderId}/`);
  const plan = await Packs.planPack(root, { thumbnailOf: (item) => Packs.thumbnailUrl(item) });
  const planMs = performance.now() - t0;
  const edge = Packs.screenEdge();
  const estimate = Packs.estimatePack(plan, args.zoom, edge);
  const started = performance.now();
  let tilesFrom = 0;
  const result = await Packs.runPack(plan, args.zoom, {
    db: Packs.localDb,
    caches: page.caches,
    screenEdge: edge,
    onProgress: (progress) => {
      if (progress.phase === 'images' && tilesFrom === 0) tilesFrom = performance.now();
    },
  });
  const finished = performance.now();
  page.benchPlan = plan;
  const storage = await Packs.readStorage();
  return {
    edge,
    pages: plan.zoneOwners.length,
    images: plan.images.length,
    estimate,
    pack: result.pack,
    failed: result.failed,
    unreachable: result.unreachable,
    planMs,
    elementsMs: (tilesFrom || finished) - started,
    tilesMs: tilesFrom ? finished - tilesFrom : 0,
    runMs: finished - started,
    usage: storage.usage,
  };
}

/**
 * Runs in the page, offline: what a page reads when opened from the pack, its element and
 * zones from IndexedDB, then its image's info.json and tiles up to screen size (or thumbnail)
 * from the pack's cache, the tiles all at once as a viewer asks for them.
 */
async function pageOpen(args: { zoom: Zoom; edge: number }) {
  const page = globalThis as unknown as PageGlobals;
  const { Packs } = page;
  const plan = page.benchPlan!;
  const cache = await page.caches.open(Packs.PACK_CACHE);
  const detail: Zoom = args.zoom === 'thumbnail' ? 'thumbnail' : 'screen';
  const times: number[] = [];
  let zones = 0;
  let tiles = 0;
  let bytes = 0;
  let missing = 0;
  for (const id of plan.zoneOwners) {
    const t0 = performance.now();
    const element = await Packs.readElement(Packs.localDb, id, { online: false });
    zones += (await Packs.readAllZones(Packs.localDb, id, { online: false })).length;
    const image = plan.images.find((candidate) => candidate.image.id === element.zone?.image.id);
    const urls = image
      ? Packs.packRequests({ images: [image], thumbnails: [] }, detail, args.edge)
      : [];
    const sizes = await Promise.all(
      urls.map(async ({ url }) => {
        const held = await cache.match(url, { ignoreVary: true });
        return held ? (await held.blob()).size : null;
      }),
    );
    for (const size of sizes) {
      if (size === null) missing += 1;
      else bytes += size;
    }
    tiles += urls.length;
    times.push(performance.now() - t0);
  }
  return { times, zones, tiles, bytes, missing };
}

function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  for (const row of rows) console.log(line(row));
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

type Download = Awaited<ReturnType<typeof pageDownload>>;
type Opening = Awaited<ReturnType<typeof pageOpen>>;

export async function run(): Promise<void> {
  if (!fs.existsSync(SET)) {
    console.log(`(shared corpus absent at ${SHARED_DATA_DIR}: packs benchmark skipped)`);
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-bench-packs-'));
  const dataDir = path.join(work, 'data');
  const distDir = path.join(work, 'dist');
  fs.mkdirSync(distDir);
  // The server serves the bundle as its "built app", so the page shares the API's origin.
  fs.writeFileSync(path.join(distDir, 'packs.js'), await bundle());
  fs.writeFileSync(
    path.join(distDir, 'index.html'),
    `<!doctype html><title>packs bench</title>${KEEP_NAMES_SCRIPT}<script src="/packs.js"></script>`,
  );

  const app = await buildApp({
    ...loadConfig({ FOLIA_DATA_DIR: dataDir, FOLIA_LOG: '0', FOLIA_DEMO: '0' }),
    distDir,
  });
  const contexts: BrowserContext[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address !== 'object') throw new Error('the server has no port');
    const origin = `http://127.0.0.1:${address.port}`;

    const user = await createUser(app.db, {
      email: EMAIL,
      password: PASSWORD,
      displayName: 'Packs bench',
      verified: true,
    });
    const corpus = await insertCorpus(
      app.db,
      { name: 'Packs bench', description: '', public: false },
      user.id,
    );
    const source = path.join(work, 'register');
    preparePages(source);
    const importStarted = performance.now();
    const report = await runImport({ db: app.db, dataDir }, source, {
      corpusId: corpus.id,
      userId: user.id,
      parentId: null,
      folderName: `Register, ${PAGES} pages`,
    });
    const importMs = performance.now() - importStarted;
    if (!report.element_id || report.pages !== PAGES) {
      throw new Error(`import: ${JSON.stringify(report.problems)}`);
    }
    const folderId = report.element_id;
    console.log(
      `${PAGES} pages (lectaurep-bronod bronod1, 5680×4180 JPEG, PAGE XML) imported in ${seconds(importMs)} s: ${report.images} images`,
    );

    const downloads: { label: string; download: Download; opening: Opening }[] = [];
    let version = '';
    for (const { label, zoom, coldServer } of CASES) {
      if (coldServer) fs.rmSync(iiifCacheDir(dataDir), { recursive: true, force: true });
      const profile = fs.mkdtempSync(path.join(work, 'profile-'));
      const context = await chromium.launchPersistentContext(profile, {
        ...CHROMIUM,
        viewport: { width: 1280, height: 800 },
        screen: SCREEN,
      });
      contexts.push(context);
      version ||= context.browser()?.version() ?? '';
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${origin}/`);
      await page.evaluate(pageLogIn, { email: EMAIL, password: PASSWORD });
      const download = await page.evaluate(pageDownload, { folderId, zoom });
      await context.setOffline(true);
      const opening = await page.evaluate(pageOpen, { zoom, edge: download.edge });
      downloads.push({ label, download, opening });
      await context.close();
      contexts.pop();
    }

    const first = downloads[0]!.download;
    console.log(
      `Chromium ${version || '(version unknown)'}, screen ${SCREEN.width}×${SCREEN.height} (screen-size detail up to ${first.edge} px), ` +
        `a new browser profile for each row, the server's tile cache emptied before each but the last`,
    );
    console.log(
      'plan s: reading what to download (the dialog does it on opening); download s: after "Download", elements s + tiles s; MB/s: stored MB / download s\n',
    );
    table(
      [
        'detail',
        'pages',
        'elements',
        'images',
        'tiles',
        'stored MB',
        'plan s',
        'download s',
        'elements s',
        'tiles s',
        'MB/s',
        'estimate MB',
        'stored/estimate',
        'browser usage MB',
        'status',
      ],
      downloads.map(({ label, download: d }) => [
        label,
        String(d.pages),
        String(d.pack.elementCount),
        String(d.images),
        String(d.pack.tileCount),
        mb(d.pack.bytes),
        seconds(d.planMs),
        seconds(d.runMs),
        seconds(d.elementsMs),
        seconds(d.tilesMs),
        (d.pack.bytes / 1e6 / (d.runMs / 1000)).toFixed(2),
        mb(d.estimate.bytes),
        (d.pack.bytes / d.estimate.bytes).toFixed(2),
        d.usage === null ? 'n/a' : mb(d.usage),
        `${d.pack.status}${d.failed ? `, ${d.failed} failed` : ''}${d.unreachable ? ', unreachable' : ''}`,
      ]),
    );
    const tileMismatch = downloads.filter(
      ({ download: d }) => d.estimate.tiles !== d.pack.tileCount,
    );
    for (const { label, download: d } of tileMismatch) {
      console.log(
        `${label}: the estimate counted ${d.estimate.tiles} tiles, ${d.pack.tileCount} stored`,
      );
    }

    console.log(
      `\nOpening each of the ${first.pages} pages offline from the pack: element and zones from IndexedDB, info.json and tiles up to screen size (thumbnail for the thumbnail pack) from the cache`,
    );
    table(
      [
        'detail',
        'pages',
        'zones',
        'tiles read',
        'MB read',
        'missing',
        'median ms',
        'max ms',
        'all s',
      ],
      downloads.map(({ label, opening: o }) => {
        const sorted = [...o.times].sort((a, b) => a - b);
        const total = o.times.reduce((sum, t) => sum + t, 0);
        return [
          label,
          String(o.times.length),
          String(o.zones),
          String(o.tiles),
          mb(o.bytes),
          String(o.missing),
          (sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1),
          (sorted[sorted.length - 1] ?? 0).toFixed(1),
          seconds(total),
        ];
      }),
    );

    const [thumbnail, screen, full, fullCached] = downloads.map(({ download }) => download) as [
      Download,
      Download,
      Download,
      Download,
    ];
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(1) : 'n/a');
    console.log(
      `\nfull / screen: ${ratio(full.pack.bytes, screen.pack.bytes)}× the bytes, ${ratio(full.runMs, screen.runMs)}× the time; ` +
        `screen / thumbnail: ${ratio(screen.pack.bytes, thumbnail.pack.bytes)}× the bytes, ${ratio(screen.runMs, thumbnail.runMs)}× the time`,
    );
    console.log(
      `full, server tiles cached / cold: ${ratio(fullCached.tilesMs, full.tilesMs)}× the tile time ` +
        `(rendering tiles on the server: about ${((1 - fullCached.tilesMs / full.tilesMs) * 100).toFixed(0)}% of a cold full download's tile phase)`,
    );
  } finally {
    for (const context of contexts) await context.close().catch(() => {});
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
