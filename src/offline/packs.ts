/**
 * Offline packs: a folder or element made available offline ahead of time.
 *
 * Planning (nothing stored yet) reads what a pack would hold: the project with its types, every
 * descendant (GET /elements/{id}/children/?recursive=true in pages of 500, zones and image facts
 * included) and each distinct image's info.json, plus one sample tile to estimate sizes.
 * Running stores it: the descendants as list items; the full element (GET /element/{id}/, with
 * rights and classifications) of the root, of folders, of elements without an image and of
 * "pages" (elements whose zone no other descendant's zone on the same image contains), so their
 * page opens offline and can be edited; the zones drawn over each page's image (the same list
 * the page reads, zoneReads.ts); then the IIIF info.json and tiles of every image up to the
 * chosen zoom (iiifTiles.ts), and the cards' thumbnails. Lines and other elements inside a page
 * are kept as list items: their page opens offline read-only until the network returns.
 *
 * Tiles go to their own cache, PACK_CACHE, which the service worker reads before its capped,
 * expiring 'iiif-tiles' cache: what the user chose to keep is never evicted by browsing. They
 * are fetched in CORS mode (opaque responses cost about 7 MB of quota each in Chromium) and
 * with cache 'no-store', which the worker lets through so a tile is not stored twice.
 *
 * Cancelling (an AbortSignal) keeps what was stored and marks the pack 'cancelled'; a network
 * loss or failed requests leave it 'incomplete'; downloading it again resumes, skipping the
 * tiles already kept. Removing a pack deletes its tiles from the cache unless another pack holds
 * them. The elements stay in the local store: they are the same rows every visit writes, and
 * the edits queued on them must keep their base version.
 *
 * The direct children of every region on a page are read too (directChildren.ts): the zones
 * list is recursive, and which lines a region holds is known offline only that way.
 *
 * Classifications and metadata come with the descendants' list (with_classes, with_metadata);
 * transcriptions with one recursive request per page (every line's), and the full elements' own;
 * the project's ML classes too, so classifying works offline; and the project's datasets with
 * the sets of every element and its neighbours there (packDatasets.ts).
 */
import { api, apiConditional, apiUrl, type Page } from '@/api/client';
import { NetworkError } from '@/api/errors';
import type { Corpus, Element, ElementListItem, ImageInfo, Polygon } from '@/api/types';
import type { FoliaDatabase, PackRow, PackTileRow, PackZoom } from './db';
import { readElement } from './elementReads';
import { storePackDatasets } from './packDatasets';
import { storeElements } from './elementStore';
import { versionOfAnswer } from './httpDates';
import { iiifTileUrls, type IiifInfo, type TileRequest } from './iiifTiles';
import { readAllZones } from './zoneReads';
import { readDirectChildren } from './directChildren';
import { LINE_TYPE_SLUG } from '@/lib/exports/layout';
import {
  readClasses,
  readLineTranscriptions,
  readMetadata,
  readTranscriptions,
  storeListedMetadata,
} from './entityReads';

export type { PackRow, PackZoom } from './db';

/** The cache of the tiles packs hold; sw/sw.ts reads it first and never expires it. */
export const PACK_CACHE = 'iiif-packs';
/** The service worker's own tile cache: a tile already there is moved, not downloaded again. */
export const TILE_CACHE = 'iiif-tiles';
export const DESCENDANTS_PAGE_SIZE = 500;
/** Requests in flight at once, as a browser allows per host. */
export const PARALLEL_REQUESTS = 6;
/** Without a sample tile: about 30 KB per 512 × 512 JPEG tile. */
export const DEFAULT_BYTES_PER_PIXEL = 30_000 / (512 * 512);

/**
 * The stored list of what a pack holds (its descendants, as listed), so what was taken offline
 * is known as such later (exports/packContents.ts): a recursive list records no parents.
 */
export function packListKey(packId: string): string {
  return `pack:${packId}:descendants`;
}

export interface PackImage {
  image: ImageInfo;
  infoUrl: string;
  /** The info.json as the server sent it; null when it could not be read. */
  info: IiifInfo | null;
  infoText: string | null;
  infoType: string;
  /** Whether tile requests carry the session cookie (as the viewer's do). */
  credentials: RequestCredentials;
}

export interface PackPlan {
  root: Element;
  corpus: Corpus;
  /** Every descendant, as the recursive list gives them. */
  descendants: ElementListItem[];
  /** Elements fetched in full: the root, folders, elements without an image, pages. */
  fullIds: string[];
  /** Elements whose image is shown with zones: their zones list is stored. */
  zoneOwners: string[];
  images: PackImage[];
  /** The cards' thumbnails of the elements fetched in full. */
  thumbnails: string[];
  /** Measured on a sample tile, else the default. */
  bytesPerPixel: number;
  /** Element data as JSON text, an estimate of its share of the pack. */
  elementBytes: number;
  /** The version of the listed descendants and their metadata (httpDates.versionOfAnswer). */
  listedVersion: string | null;
  /** When the list was asked for, by this device's clock: what was saved here since is newer. */
  listedAt: number;
}

export interface PackEstimate {
  elements: number;
  images: number;
  tiles: number;
  bytes: number;
}

export type PackProgress =
  | { phase: 'listing'; done: number; total: number | null }
  | { phase: 'elements' | 'images'; done: number; total: number; bytes: number };

export interface PackContext {
  db: FoliaDatabase;
  caches: CacheStorage;
  signal?: AbortSignal;
  onProgress?: (progress: PackProgress) => void;
}

export interface PackResult {
  pack: PackRow;
  /** Requests the server refused (a missing tile, a deleted element). */
  failed: number;
  /** The network went away before the end. */
  unreachable: boolean;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DOMException('The download was cancelled.', 'AbortError');
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Runs `task` on every item, `limit` at a time, in order of start; stops on the first throw. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        throwIfAborted(signal);
        await task(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw failure;
}

function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/**
 * As the viewer asks (viewer/image.ts tileRequestMode): with the cookie only for a private
 * image on the API's own server on another origin; same-origin requests carry it anyway.
 */
export function tileCredentials(
  imageUrl: string,
  isPublic: boolean,
  pageUrl: string,
): RequestCredentials {
  const image = originOf(imageUrl, pageUrl);
  const page = originOf(pageUrl, pageUrl);
  const apiOrigin = originOf(apiUrl('/'), pageUrl);
  return !isPublic && image !== null && image !== page && image === apiOrigin
    ? 'include'
    : 'same-origin';
}

function infoUrlOf(image: ImageInfo): string {
  return `${image.url.replace(/\/+$/, '')}/info.json`;
}

function box(polygon: Polygon) {
  const xs = polygon.map(([x]) => x);
  const ys = polygon.map(([, y]) => y);
  return {
    left: Math.min(...xs),
    top: Math.min(...ys),
    right: Math.max(...xs),
    bottom: Math.max(...ys),
  };
}

/**
 * The "pages" among elements on images: per image, the zones no larger zone contains. Lines
 * and regions sit inside their page's zone; two pages of a double-page scan sit side by side.
 */
export function pagesOnImages(items: readonly ElementListItem[]): Set<string> {
  const byImage = new Map<string, { id: string; area: number; b: ReturnType<typeof box> }[]>();
  for (const item of items) {
    if (!item.zone?.polygon?.length) continue;
    const b = box(item.zone.polygon);
    const list = byImage.get(item.zone.image.id) ?? [];
    list.push({ id: item.id, b, area: (b.right - b.left) * (b.bottom - b.top) });
    byImage.set(item.zone.image.id, list);
  }
  const pages = new Set<string>();
  for (const list of byImage.values()) {
    list.sort((a, b) => b.area - a.area);
    const tops: typeof list = [];
    for (const candidate of list) {
      const inside = tops.some(
        (top) =>
          top.area > candidate.area &&
          top.b.left <= candidate.b.left &&
          top.b.top <= candidate.b.top &&
          top.b.right >= candidate.b.right &&
          top.b.bottom >= candidate.b.bottom,
      );
      if (!inside) tops.push(candidate);
    }
    for (const top of tops) pages.add(top.id);
  }
  return pages;
}

async function fetchInfo(
  image: ImageInfo,
  isPublic: boolean,
  signal: AbortSignal | undefined,
): Promise<PackImage> {
  const infoUrl = infoUrlOf(image);
  const credentials = tileCredentials(
    image.url,
    isPublic,
    globalThis.location?.href ?? 'http://localhost/',
  );
  const planned: PackImage = {
    image,
    infoUrl,
    info: null,
    infoText: null,
    infoType: 'application/json',
    credentials,
  };
  let response: Response;
  try {
    response = await fetch(infoUrl, { mode: 'cors', credentials, cache: 'no-store', signal });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new NetworkError();
  }
  if (!response.ok) return planned;
  const text = await response.text();
  try {
    const info = JSON.parse(text) as IiifInfo;
    return {
      ...planned,
      info,
      infoText: text,
      infoType: response.headers.get('content-type') ?? 'application/json',
    };
  } catch {
    return planned;
  }
}

/** One tile of the first readable image, from its largest level: bytes per pixel. */
async function sampleBytesPerPixel(images: PackImage[], signal?: AbortSignal): Promise<number> {
  const first = images.find((candidate) => candidate.info);
  if (!first?.info) return DEFAULT_BYTES_PER_PIXEL;
  const tiles = iiifTileUrls(first.info, first.infoUrl, 'full');
  const sample = tiles[Math.floor(tiles.length / 2)];
  if (!sample) return DEFAULT_BYTES_PER_PIXEL;
  try {
    const response = await fetch(sample.url, {
      mode: 'cors',
      credentials: first.credentials,
      cache: 'no-store',
      signal,
    });
    if (!response.ok) return DEFAULT_BYTES_PER_PIXEL;
    const bytes = (await response.blob()).size;
    return bytes > 0 ? bytes / (sample.width * sample.height) : DEFAULT_BYTES_PER_PIXEL;
  } catch (error) {
    if (isAbort(error)) throw error;
    return DEFAULT_BYTES_PER_PIXEL;
  }
}

export interface PlanOptions {
  signal?: AbortSignal;
  onProgress?: (progress: PackProgress) => void;
  /** The address of an element's card thumbnail (components/ElementCard's). */
  thumbnailOf?: (element: ElementListItem) => string | null;
}

/** Reads what making `root` available offline would download. Needs the network. */
export async function planPack(root: Element, options: PlanOptions = {}): Promise<PackPlan> {
  const { signal, onProgress } = options;
  const corpus = await api<Corpus>(`/corpus/${root.corpus.id}/`, { signal });
  const descendants: ElementListItem[] = [];
  const listedAt = Date.now();
  let listedVersion: string | null = null;
  onProgress?.({ phase: 'listing', done: 0, total: null });
  for (let page = 1; ; page += 1) {
    const conditional = await apiConditional<Page<ElementListItem>>(
      `/elements/${root.id}/children/`,
      {
        // Their classifications and metadata come with them: no request per element for those.
        query: {
          recursive: true,
          page_size: DESCENDANTS_PAGE_SIZE,
          page,
          with_classes: true,
          with_metadata: true,
        },
        signal,
      },
    );
    const answer = conditional.data!;
    // The first answer's date serves every page: earlier than a later page's own, it can
    // only make a conflict of a change made meanwhile, never hide one.
    listedVersion ??= versionOfAnswer(conditional.date);
    descendants.push(...answer.results);
    onProgress?.({ phase: 'listing', done: descendants.length, total: answer.count });
    if (!answer.next || answer.results.length === 0) break;
  }

  const folders = new Set(corpus.types.filter((type) => type.folder).map((type) => type.slug));
  const pages = pagesOnImages([root, ...descendants]);
  const full = descendants.filter(
    (item) => folders.has(item.type) || !item.zone || pages.has(item.id),
  );
  const zoneOwners = [root, ...full].filter((item) => item.zone).map((item) => item.id);

  const distinct = new Map<string, ImageInfo>();
  for (const item of [root, ...descendants]) {
    if (item.zone?.image) distinct.set(item.zone.image.url, item.zone.image);
  }
  const images: PackImage[] = [];
  const queue = [...distinct.values()];
  onProgress?.({ phase: 'images', done: 0, total: queue.length, bytes: 0 });
  await eachLimited(queue, PARALLEL_REQUESTS, signal, async (image) => {
    images.push(await fetchInfo(image, corpus.public, signal));
    onProgress?.({ phase: 'images', done: images.length, total: queue.length, bytes: 0 });
  });
  // In the elements' order, whatever order the answers came in.
  const order = new Map(queue.map((image, i) => [image.url, i]));
  images.sort((a, b) => order.get(a.image.url)! - order.get(b.image.url)!);

  const thumbnails = new Set<string>();
  for (const item of full) {
    const url = options.thumbnailOf?.(item);
    if (url) thumbnails.add(url);
  }
  const elementBytes =
    JSON.stringify(descendants).length + (full.length + 1) * JSON.stringify(root).length;
  return {
    root,
    corpus,
    descendants,
    fullIds: [root.id, ...full.map((item) => item.id)],
    zoneOwners,
    images,
    thumbnails: [...thumbnails],
    bytesPerPixel: await sampleBytesPerPixel(images, signal),
    elementBytes,
    listedVersion,
    listedAt,
  };
}

/** The URLs a pack caches at a zoom: each image's info.json and tiles, then thumbnails. */
export function packRequests(
  plan: Pick<PackPlan, 'images' | 'thumbnails'>,
  zoom: PackZoom,
  screenEdge?: number,
): (TileRequest & { image: PackImage | null })[] {
  const requests: (TileRequest & { image: PackImage | null })[] = [];
  const seen = new Set<string>();
  const add = (request: TileRequest, image: PackImage | null) => {
    if (seen.has(request.url)) return;
    seen.add(request.url);
    requests.push({ ...request, image });
  };
  for (const image of plan.images) {
    if (!image.info) continue;
    add({ url: image.infoUrl, width: 0, height: 0 }, image);
    for (const tile of iiifTileUrls(image.info, image.infoUrl, zoom, screenEdge)) add(tile, image);
  }
  for (const url of plan.thumbnails) add({ url, width: 0, height: 0 }, null);
  return requests;
}

/** What the dialog shows before the download starts. */
export function estimatePack(plan: PackPlan, zoom: PackZoom, screenEdge?: number): PackEstimate {
  const requests = packRequests(plan, zoom, screenEdge);
  // A card thumbnail is about 200 px high.
  const THUMBNAIL_PIXELS = 150 * 200;
  let bytes = plan.elementBytes;
  let tiles = 0;
  for (const request of requests) {
    if (request.url.endsWith('/info.json')) {
      bytes += request.image?.infoText?.length ?? 0;
      continue;
    }
    tiles += 1;
    const pixels = request.width * request.height || THUMBNAIL_PIXELS;
    bytes += pixels * plan.bytesPerPixel;
  }
  return {
    elements: plan.descendants.length + 1,
    images: plan.images.length,
    tiles,
    bytes: Math.round(bytes),
  };
}

async function responseSize(response: Response): Promise<number> {
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.clone().blob()).size;
}

/** Forgets `urls` for a pack, and uncaches those no other pack holds. */
async function releaseTiles(
  db: FoliaDatabase,
  caches: CacheStorage,
  packId: string,
  urls: string[],
): Promise<void> {
  if (urls.length === 0) return;
  await db.packTiles.bulkDelete(urls.map((url): [string, string] => [packId, url]));
  const stillHeld = new Set(
    (await db.packTiles.where('url').anyOf(urls).toArray()).map((row) => row.url),
  );
  const cache = await caches.open(PACK_CACHE);
  for (const url of urls) {
    if (!stillHeld.has(url)) await cache.delete(url, { ignoreVary: true });
  }
}

export interface RunOptions extends PackContext {
  /** Told the project, so the app can keep it where its pages read it offline. */
  onCorpus?: (corpus: Corpus) => void | Promise<void>;
  screenEdge?: number;
}

/**
 * Downloads a planned pack. Resolves with the pack as recorded, also when cancelled (status
 * 'cancelled') or cut short by the network ('incomplete'); rejects only on a local failure.
 */
export async function runPack(
  plan: PackPlan,
  zoom: PackZoom,
  options: RunOptions,
): Promise<PackResult> {
  const { db, caches, signal, onProgress } = options;
  const pack: PackRow = {
    id: plan.root.id,
    name: plan.root.name,
    corpusId: plan.corpus.id,
    zoom,
    elementCount: 0,
    tileCount: 0,
    bytes: 0,
    status: 'incomplete',
    createdAt: Date.now(),
  };
  let failed = 0;
  let unreachable = false;
  // Stops the remaining requests on cancel and when the network goes away.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort);
  const lost = () => {
    unreachable = true;
    stop.abort();
  };
  await db.packs.put(pack);

  try {
    // The project and every descendant as listed: the pages open from these even if the rest
    // is cut short.
    await db.corpora.put({ id: plan.corpus.id, data: plan.corpus, savedAt: Date.now() });
    await options.onCorpus?.(plan.corpus);
    for (let start = 0; start < plan.descendants.length; start += DESCENDANTS_PAGE_SIZE) {
      throwIfAborted(stop.signal);
      const chunk = plan.descendants.slice(start, start + DESCENDANTS_PAGE_SIZE);
      await db.transaction('rw', [db.elements, db.outbox], () =>
        storeElements(db, chunk, { full: false, listedVersion: plan.listedVersion }),
      );
      await storeListedMetadata(db, chunk, {
        lastModified: plan.listedVersion,
        requestedAt: plan.listedAt,
      });
    }
    // Owned by no element, so no edit of the root drops it as a list to read again.
    await db.lists.put({
      key: packListKey(pack.id),
      ownerId: packListKey(pack.id),
      ids: plan.descendants.map((item) => item.id),
      count: plan.descendants.length,
      lastModified: plan.listedVersion,
      savedAt: Date.now(),
    });
    pack.elementCount = plan.descendants.length + 1;
    pack.bytes = JSON.stringify(plan.descendants).length;

    // Full elements with their transcriptions and metadata, then the zones of the pages'
    // images and the transcriptions of everything on them, then the project's classes.
    const reads = [
      ...plan.fullIds.map((id) => ({ kind: 'element' as const, id })),
      ...plan.zoneOwners.map((id) => ({ kind: 'zones' as const, id })),
      { kind: 'classes' as const, id: plan.corpus.id },
      // The project's datasets and the sets of every element here, with their neighbours.
      { kind: 'datasets' as const, id: plan.corpus.id },
    ];
    let done = 0;
    const report = (phase: 'elements' | 'images', total: number) =>
      onProgress?.({ phase, done, total, bytes: pack.bytes });
    report('elements', reads.length);
    const readOptions = { online: true, onUnreachable: lost };
    await eachLimited(reads, PARALLEL_REQUESTS, stop.signal, async (read) => {
      try {
        if (read.kind === 'element') {
          pack.bytes += JSON.stringify(await readElement(db, read.id, readOptions)).length;
          pack.bytes += JSON.stringify(await readTranscriptions(db, read.id, readOptions)).length;
          pack.bytes += JSON.stringify(await readMetadata(db, read.id, readOptions)).length;
        } else if (read.kind === 'zones') {
          // The zones are descendants already counted: only their list is new.
          const zones = await readAllZones(db, read.id, readOptions);
          // Which lines each region holds: the zones list records only the page as a parent.
          for (const zone of zones) {
            if (zone.type !== LINE_TYPE_SLUG) await readDirectChildren(db, zone.id, readOptions);
          }
          // Its own zones only: another page on the same image (a scan imported twice) has
          // lines this page's recursive answer knows nothing of, which it would store as
          // having no text whenever it answered after that page's.
          const ids = zones.map((zone) => zone.id);
          const lines = await readLineTranscriptions(db, read.id, ids, readOptions);
          pack.bytes += JSON.stringify(lines).length;
        } else if (read.kind === 'classes') {
          await readClasses(db, read.id, readOptions);
        } else {
          const ids = [plan.root.id, ...plan.descendants.map((item) => item.id)];
          const stored = await storePackDatasets(db, read.id, ids, {
            signal: stop.signal,
            parallel: PARALLEL_REQUESTS,
          });
          pack.bytes += stored.bytes;
        }
      } catch (error) {
        if (isAbort(error) || error instanceof NetworkError) throw error;
        // Refused (deleted meanwhile, no longer readable): the rest goes on.
        failed += 1;
      }
      done += 1;
      report('elements', reads.length);
    });
    throwIfAborted(stop.signal);

    // Info.json, tiles and thumbnails; a URL no longer wanted (another zoom before) is let go.
    const requests = packRequests(plan, zoom, options.screenEdge);
    const wanted = new Set(requests.map((request) => request.url));
    const before = await db.packTiles.where('packId').equals(pack.id).toArray();
    await releaseTiles(
      db,
      caches,
      pack.id,
      before.filter((row) => !wanted.has(row.url)).map((row) => row.url),
    );
    // Recorded before they are fetched, so a tab closed midway leaves no tile unaccounted.
    const rows = new Map<string, PackTileRow>(
      requests.map((request) => [request.url, { packId: pack.id, url: request.url, bytes: 0 }]),
    );
    await db.packTiles.bulkPut([...rows.values()]);
    const packCache = await caches.open(PACK_CACHE);
    const tileCache = await caches.open(TILE_CACHE);
    done = 0;
    report('images', requests.length);
    const elementBytes = pack.bytes;
    await eachLimited(requests, PARALLEL_REQUESTS, stop.signal, async (request) => {
      const bytes = await cacheOne(request, packCache, tileCache, stop.signal).catch(
        (error: unknown) => {
          if (isAbort(error)) throw error;
          if (error instanceof NetworkError) {
            lost();
            throw error;
          }
          failed += 1;
          return null;
        },
      );
      if (bytes !== null) {
        rows.get(request.url)!.bytes = bytes;
        if (!request.url.endsWith('/info.json')) pack.tileCount += 1;
        pack.bytes += bytes;
      }
      done += 1;
      report('images', requests.length);
    }).finally(async () => {
      await db.packTiles.bulkPut([...rows.values()]);
      pack.bytes = elementBytes + [...rows.values()].reduce((sum, row) => sum + row.bytes, 0);
    });
    pack.status = failed > 0 ? 'incomplete' : 'complete';
  } catch (error) {
    if (!(isAbort(error) || error instanceof NetworkError)) {
      await db.packs.put(pack);
      throw error;
    }
    pack.status = unreachable || error instanceof NetworkError ? 'incomplete' : 'cancelled';
    unreachable ||= error instanceof NetworkError;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  pack.bytes = Math.round(pack.bytes);
  await db.packs.put(pack);
  return { pack, failed, unreachable };
}

/** Keeps one URL in the pack cache: already there, moved from the worker's cache, or fetched. */
async function cacheOne(
  request: TileRequest & { image: PackImage | null },
  packCache: Cache,
  tileCache: Cache,
  signal: AbortSignal,
): Promise<number> {
  const held = await packCache.match(request.url, { ignoreVary: true });
  if (held) return responseSize(held);
  if (request.url.endsWith('/info.json') && request.image?.infoText) {
    const response = new Response(request.image.infoText, {
      headers: { 'content-type': request.image.infoType },
    });
    await packCache.put(request.url, response);
    return request.image.infoText.length;
  }
  const seen = await tileCache.match(request.url, { ignoreVary: true });
  if (seen && seen.type !== 'opaque') {
    const size = await responseSize(seen);
    await packCache.put(request.url, seen);
    await tileCache.delete(request.url, { ignoreVary: true });
    return size;
  }
  let response: Response;
  try {
    response = await fetch(request.url, {
      mode: 'cors',
      credentials: request.image?.credentials ?? 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new NetworkError();
  }
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${request.url}`);
  const size = await responseSize(response);
  await packCache.put(request.url, response);
  return size;
}

/** Removes a pack: its tiles leave the cache unless another pack holds them. */
export async function removePack(
  db: FoliaDatabase,
  caches: CacheStorage,
  id: string,
): Promise<void> {
  const rows = await db.packTiles.where('packId').equals(id).toArray();
  await releaseTiles(
    db,
    caches,
    id,
    rows.map((row) => row.url),
  );
  await db.lists.delete(packListKey(id));
  await db.packs.delete(id);
}

export interface StorageFigures {
  /** Null where the browser does not tell. */
  usage: number | null;
  quota: number | null;
  persisted: boolean | null;
}

/** What this site uses of the space the browser gives it, and whether it may be evicted. */
export async function readStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<StorageFigures> {
  const [estimate, persisted] = await Promise.all([
    storage?.estimate ? storage.estimate().catch(() => null) : null,
    storage?.persisted ? storage.persisted().catch(() => null) : null,
  ]);
  return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
}

/** Asks the browser not to clear this site's data under storage pressure. */
export async function askPersistentStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<boolean> {
  if (!storage?.persist) return false;
  return storage.persist().catch(() => false);
}
