/**
 * What the offline pack suites share: a CacheStorage in memory, a IIIF server behind the fake
 * API (info.json and tiles, with a hook to hold tiles back), and a folder of pages with lines.
 */
import { vi } from 'vitest';
import type { Corpus, Element, ImageInfo } from '@/api/types';
import {
  elementsApi,
  makeCorpus,
  makeElement,
  makeImage,
  rect,
  type ElementsApiOptions,
} from '../support/elementsApi';

/** Cache and CacheStorage as far as packs use them: by URL, Vary ignored. */
export class MemoryCache {
  readonly entries = new Map<string, { body: ArrayBuffer; headers: [string, string][] }>();

  async match(request: RequestInfo | URL): Promise<Response | undefined> {
    const entry = this.entries.get(keyOf(request));
    return entry && new Response(entry.body.slice(0), { headers: entry.headers });
  }

  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    this.entries.set(keyOf(request), {
      body: await response.arrayBuffer(),
      headers: [...response.headers.entries()],
    });
  }

  async delete(request: RequestInfo | URL): Promise<boolean> {
    return this.entries.delete(keyOf(request));
  }

  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

function keyOf(request: RequestInfo | URL): string {
  return request instanceof Request ? request.url : String(request);
}

export function memoryCaches() {
  const caches = new Map<string, MemoryCache>();
  const open = (name: string) => {
    let cache = caches.get(name);
    if (!cache) caches.set(name, (cache = new MemoryCache()));
    return cache;
  };
  const storage = {
    open: async (name: string) => open(name),
    has: async (name: string) => caches.has(name),
    delete: async (name: string) => caches.delete(name),
    keys: async () => [...caches.keys()],
    match: async (request: RequestInfo | URL, options?: MultiCacheQueryOptions) =>
      options?.cacheName ? caches.get(options.cacheName)?.match(request) : undefined,
  };
  return {
    storage: storage as unknown as CacheStorage,
    /** The URLs a cache holds, sorted. */
    urls: (name: string) => [...(caches.get(name)?.entries.keys() ?? [])].sort(),
    open,
  };
}

export const IIIF_HOST = 'iiif.example.org';

/** info.json as this project's server writes it: 512 px tiles, the pyramid as `sizes`. */
export function infoJsonOf(image: ImageInfo) {
  const factors = [1];
  while (
    Math.ceil(image.width / factors.at(-1)!) > 512 ||
    Math.ceil(image.height / factors.at(-1)!) > 512
  ) {
    factors.push(factors.at(-1)! * 2);
  }
  return {
    '@context': 'http://iiif.io/api/image/2/context.json',
    '@id': image.url,
    protocol: 'http://iiif.io/api/image',
    width: image.width,
    height: image.height,
    profile: ['http://iiif.io/api/image/2/level2.json'],
    tiles: [{ width: 512, scaleFactors: factors }],
    sizes: factors.map((f) => ({
      width: Math.ceil(image.width / f),
      height: Math.ceil(image.height / f),
    })),
  };
}

export const TILE_BYTES = 2500;

export interface IiifServer {
  /** Every image URL asked for, in order. */
  requested: string[];
  /** Holds every tile request back until `release()`; aborting the request still works. */
  hold(): void;
  release(): void;
}

/**
 * Puts a IIIF server in front of the fetch stub already in place: info.json for `images`, and
 * a TILE_BYTES-long JPEG for any other image request on IIIF_HOST.
 */
export function iiifServer(images: ImageInfo[]): IiifServer {
  const api = globalThis.fetch;
  const requested: string[] = [];
  let held: Promise<void> | null = null;
  let release = () => {};
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.host !== IIIF_HOST) return api(input, init);
    requested.push(url.href);
    const signal = init?.signal;
    if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    const image = images.find((candidate) => url.href === `${candidate.url}/info.json`);
    if (image) {
      return new Response(JSON.stringify(infoJsonOf(image)), {
        headers: { 'content-type': 'application/json', vary: 'Origin, Accept' },
      });
    }
    if (held && !url.pathname.endsWith('/info.json')) {
      await Promise.race([
        held,
        new Promise((_, reject) =>
          signal?.addEventListener('abort', () =>
            reject(new DOMException('Aborted', 'AbortError')),
          ),
        ),
      ]);
    }
    return new Response(new Uint8Array(TILE_BYTES), {
      headers: { 'content-type': 'image/jpeg', 'content-length': String(TILE_BYTES) },
    });
  });
  return {
    requested,
    hold() {
      held = new Promise((resolve) => (release = resolve));
    },
    release() {
      held = null;
      release();
    },
  };
}

export interface Register {
  corpus: Corpus;
  folder: Element;
  pages: Element[];
  lines: Element[];
  images: ImageInfo[];
}

/** A folder of two pages, each on its own 1000 × 1500 image with two lines. */
export function register(): Register {
  const corpus = makeCorpus({ name: 'Bronod registers', public: false });
  const folder = makeElement(corpus, { name: 'Register 1', type: 'folder' });
  const images = [makeImage(), makeImage()];
  const pages = images.map((image, i) =>
    makeElement(corpus, { name: `Page ${i + 1}`, type: 'page', image }),
  );
  const lines = pages.flatMap((page, p) =>
    [0, 1].map((l) =>
      makeElement(corpus, {
        name: `Line ${p + 1}.${l + 1}`,
        type: 'text_line',
        image: images[p]!,
        polygon: rect(100, 100 + 200 * l, 800, 100),
      }),
    ),
  );
  return { corpus, folder, pages, lines, images };
}

/** The element API for a register, then its IIIF server. */
export function registerServers(
  data: Register,
  overrides?: ElementsApiOptions['overrides'],
): { api: ReturnType<typeof elementsApi>; iiif: IiifServer } {
  const { corpus, folder, pages, lines, images } = data;
  const api = elementsApi({
    corpus,
    elements: [folder, ...pages, ...lines],
    children: {
      [folder.id]: pages,
      [pages[0]!.id]: lines.slice(0, 2),
      [pages[1]!.id]: lines.slice(2),
    },
    images,
    overrides,
  });
  return { api, iiif: iiifServer(images) };
}
