/**
 * The official IIIF Image API validator's checks (github.com/IIIF/image-validator), levels 0 to 2
 * of version 2.1 and the optional features Folia's info.json announces, written as our own
 * tests: the validator's test image in a public project, each request made over HTTP as the
 * validator makes it (with its Origin header, its random strings sent unescaped), each answer
 * judged as it judges it: the most common colour of a square within 5 of the expected one.
 * Where it draws squares at random, a seeded generator draws twice as many, and all must match
 * (the validator is content with 4 of 5).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { storeImage } from '../../../server/services/images';
import { makeActors, makeCorpus } from '../actors';
import { describeEachDialect } from '../harness';
import {
  SIDE,
  SQUARE,
  VALIDATOR_COLOURS,
  VALIDATOR_IMAGE_ID,
  validatorTestImage,
} from './validatorImage';

const LEVEL_2 = 'http://iiif.io/api/image/2/level2.json';

/** What the validator sends with every request, to look like a browser. */
const VALIDATOR_HEADERS = {
  origin: 'http://iiif.io/',
  referer: 'http://iiif.io/api/image/validator',
  'user-agent':
    'Mozilla/5.0 (Macintosh; U; Intel Mac OS X 10.5; en-US; rv:1.9.1b3pre) Gecko/20081130 Minefield/3.1b3pre',
};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request, its path sent as written (Python's urllib escapes nothing either). */
function fetchRaw(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { ...VALIDATOR_HEADERS, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

interface Picture {
  format: string;
  width: number;
  height: number;
  /** Bands in the file: 1 is what Pillow calls mode L, 3 RGB. */
  bands: number;
  /** Pixels decoded as sRGB, `channels` values each. */
  channels: number;
  data: Buffer;
}

async function decode(answer: Answer): Promise<Picture> {
  expect(answer.status, answer.body.toString('utf8').slice(0, 300)).toBe(200);
  const { format, channels: bands } = await sharp(answer.body).metadata();
  const { data, info } = await sharp(answer.body).raw().toBuffer({ resolveWithObject: true });
  return {
    format: format ?? '',
    bands: bands ?? 0,
    width: info.width,
    height: info.height,
    channels: info.channels,
    data,
  };
}

type Box = [number, number, number, number];

/** The most common colour in a box (left, top, right, bottom; right and bottom excluded). */
function mostCommonColour(picture: Picture, [left, top, right, bottom]: Box): number[] {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (let y = Math.max(0, top); y < Math.min(bottom, picture.height); y += 1) {
    for (let x = Math.max(0, left); x < Math.min(right, picture.width); x += 1) {
      const i = (y * picture.width + x) * picture.channels;
      const [r, g, b] =
        picture.channels >= 3
          ? [picture.data[i]!, picture.data[i + 1]!, picture.data[i + 2]!]
          : [picture.data[i]!, picture.data[i]!, picture.data[i]!];
      const key = (r << 16) | (g << 8) | b;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count > bestCount) [best, bestCount] = [key, count];
    }
  }
  return [(best >> 16) & 255, (best >> 8) & 255, best & 255];
}

/** The validator's do_test_square: "" when the box shows square (x, y), else what it shows. */
function squareMismatch(picture: Picture, box: Box | null, x: number, y: number): string {
  const truth = VALIDATOR_COLOURS[x]![y]!;
  const colour = mostCommonColour(picture, box ?? [0, 0, picture.width, picture.height]);
  const ok = colour.every((value, i) => Math.abs(value - truth[i]!) < 6);
  return ok ? '' : `square ${x},${y}: ${colour.join(',')} instead of ${truth.join(',')}`;
}

/** mulberry32: the same draws on every run, so a failure can be replayed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** Like Python's random.randint: both ends included. */
    int: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)),
    /** The validator's make_randomstring: characters 0 to z, never ? # or /. */
    string(length: number) {
      let value = '';
      for (let i = 0; i < length; i += 1) value += String.fromCharCode(this.int(48, 122));
      return value.replace(/[?#/]/g, '$');
    },
  };
}

const DRAWS = 10;

describeEachDialect('The IIIF validator’s checks of Image API 2.1, levels 0 to 2', ({ t }) => {
  let port: number;
  let id: string;
  let base: string;

  const get = (path: string, options?: Parameters<typeof fetchRaw>[2]) =>
    fetchRaw(port, path, options);
  const imageUrl =
    (params: Partial<Record<'region' | 'size' | 'rotation', string>> = {}) =>
    (quality = 'default', format = 'jpg') =>
      `${base}/${params.region ?? 'full'}/${params.size ?? 'full'}/${params.rotation ?? '0'}/${quality}.${format}`;
  const image = async (
    params: Partial<Record<'region' | 'size' | 'rotation', string>> = {},
    quality?: string,
    format?: string,
  ) => decode(await get(imageUrl(params)(quality, format)));

  beforeAll(async () => {
    const app = t().app;
    const actors = await makeActors(app);
    const corpusId = await makeCorpus(app, actors, { name: 'IIIF validator', public: true });
    const stored = await storeImage(app, {
      corpusId,
      buffer: await validatorTestImage(),
      filename: `${VALIDATOR_IMAGE_ID}.png`,
    });
    id = stored.id;
    base = `/iiif/${id}`;
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });

  it('info_json: the image information has every required field, of the right type', async () => {
    const answer = await get(`${base}/info.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/(ld\+)?json\b/);
    const info = JSON.parse(answer.body.toString('utf8'));
    expect(info).toMatchObject({ width: SIDE, height: SIDE });
    expect(Number.isInteger(info.width) && Number.isInteger(info.height)).toBe(true);
    expect(info['@id']).toBe(`http://127.0.0.1:${port}${base}`);
    expect(info['@context']).toBe('http://iiif.io/api/image/2/context.json');
    expect(info.protocol).toBe('http://iiif.io/api/image');
    expect(Array.isArray(info.profile)).toBe(true);
    expect(info.profile[0]).toMatch(/^http:\/\/iiif\.io\/api\/image\/2\/level/);
    for (const size of info.sizes ?? []) {
      expect(Number.isInteger(size.width) && Number.isInteger(size.height)).toBe(true);
    }
    expect(info.tiles.length).toBeGreaterThan(0);
    for (const tile of info.tiles) {
      expect(Number.isInteger(tile.width)).toBe(true);
      expect(Array.isArray(tile.scaleFactors)).toBe(true);
    }
  });

  it('says level 2 in info.json and in the Link header of its images (linkheader_profile)', async () => {
    const info = JSON.parse((await get(`${base}/info.json`)).body.toString('utf8'));
    expect(info.profile[0]).toBe(LEVEL_2);
    const answer = await get(imageUrl()());
    expect(answer.status).toBe(200);
    const profile = /<([^>]+)>\s*;\s*rel="?profile"?/.exec(String(answer.headers.link))?.[1];
    expect(profile).toBe(LEVEL_2);
  });

  it('linkheader_canonical: an image names its canonical URI (canonicalLinkHeader, announced)', async () => {
    const answer = await get(`${base}/pct:10,20,30,40/150,/!90/color.png`);
    expect(answer.status).toBe(200);
    const canonical = /<([^>]+)>\s*;\s*rel="?canonical"?/.exec(String(answer.headers.link))?.[1];
    expect(canonical).toBe(`http://127.0.0.1:${port}${base}/100,200,300,400/150,/!90/default.png`);
    const same = await get(new URL(canonical!).pathname);
    expect(same.body.equals(answer.body)).toBe(true);
    const full = await get(imageUrl()());
    expect(String(full.headers.link)).toContain(
      `<http://127.0.0.1:${port}${base}/full/full/0/default.jpg>;rel="canonical"`,
    );
  });

  it('id_basic and format_jpg: the full image is a JPEG', async () => {
    const picture = await image();
    expect(picture.format).toBe('jpeg');
    expect([picture.width, picture.height]).toEqual([SIDE, SIDE]);
  });

  it('id_squares: the full image shows the squares where they are', async () => {
    const random = seeded(1);
    const picture = await image();
    const mismatches: string[] = [];
    for (let i = 0; i < DRAWS; i += 1) {
      const [x, y] = [random.int(0, 9), random.int(0, 9)];
      const [xi, yi] = [x * SQUARE + 13, y * SQUARE + 13];
      mismatches.push(squareMismatch(picture, [xi, yi, xi + 74, yi + 74], x, y));
    }
    expect(mismatches.filter(Boolean)).toEqual([]);
  });

  it('id_error_random, id_error_escapedslash, id_error_unescaped: unknown identifiers', async () => {
    expect((await get(`/iiif/${randomUUID()}/full/full/0/default.jpg`)).status).toBe(404);
    expect((await get('/iiif/a/b/full/full/0/default.jpg')).status).toBe(404);
    expect([400, 404]).toContain((await get('/iiif/[frob]/full/full/0/default.jpg')).status);
  });

  it('id_escaped: an identifier with escaped characters is the same image', async () => {
    const escaped = id.replace(/-/g, '%2D');
    const picture = await decode(await get(`/iiif/${escaped}/full/full/0/default.jpg`));
    expect(picture.format).toBe('jpeg');
  });

  it('region_pixels: a region given in pixels shows its square', async () => {
    const random = seeded(2);
    const mismatches: string[] = [];
    for (let i = 0; i < DRAWS; i += 1) {
      const [x, y] = [random.int(0, 9), random.int(0, 9)];
      const region = `${x * SQUARE + 13},${y * SQUARE + 13},74,74`;
      mismatches.push(squareMismatch(await image({ region }), null, x, y));
    }
    expect(mismatches.filter(Boolean)).toEqual([]);
  });

  it('region_percent: a region given in percent shows its square', async () => {
    const random = seeded(3);
    const mismatches: string[] = [];
    for (let i = 0; i < DRAWS; i += 1) {
      const [x, y] = [random.int(0, 9), random.int(0, 9)];
      const region = `pct:${x * 10 + 1},${y * 10 + 1},9,9`;
      mismatches.push(squareMismatch(await image({ region }), null, x, y));
    }
    expect(mismatches.filter(Boolean)).toEqual([]);
  });

  it('region_square: the square region is square', async () => {
    const picture = await image({ region: 'square' });
    expect(picture.width).toBe(picture.height);
  });

  it('size_region: a region at a given size has that size and its square', async () => {
    const random = seeded(4);
    const mismatches: string[] = [];
    for (let i = 0; i < DRAWS; i += 1) {
      const s = random.int(35, 90);
      const [x, y] = [random.int(0, 9), random.int(0, 9)];
      const picture = await image({ size: `${s},${s}`, region: `${x * 100},${y * 100},100,100` });
      expect([picture.width, picture.height]).toEqual([s, s]);
      mismatches.push(squareMismatch(picture, null, x, y));
    }
    expect(mismatches.filter(Boolean)).toEqual([]);
  });

  /** The checks of a scaled full image: its size, then its squares where the scale puts them. */
  async function scaledSquares(
    seed: number,
    size: string,
    expected: [number, number],
    squareW: number,
    squareH = squareW,
  ): Promise<void> {
    const random = seeded(seed);
    const picture = await image({ size });
    expect([picture.width, picture.height]).toEqual(expected);
    const mismatches: string[] = [];
    for (let i = 0; i < DRAWS; i += 1) {
      const [x, y] = [random.int(0, 9), random.int(0, 9)];
      const [xi, yi] = [x * squareW + 13, y * squareH + 13];
      mismatches.push(
        squareMismatch(picture, [xi, yi, xi + squareW - 13, yi + squareH - 13], x, y),
      );
    }
    expect(mismatches.filter(Boolean)).toEqual([]);
  }

  it('size_wc: a size given as w, keeps the proportions', async () => {
    const s = seeded(5).int(450, 750);
    await scaledSquares(6, `${s},`, [s, s], Math.trunc(s / 10));
  });

  it('size_ch: a size given as ,h keeps the proportions', async () => {
    const s = seeded(7).int(450, 750);
    await scaledSquares(8, `,${s}`, [s, s], Math.trunc(s / 10));
  });

  it('size_percent: a size given in percent scales both sides', async () => {
    const s = seeded(9).int(45, 75);
    await scaledSquares(10, `pct:${s}`, [s * 10, s * 10], s);
  });

  it('size_wh: a size given as w,h distorts the image to it', async () => {
    const random = seeded(11);
    const [w, h] = [random.int(350, 750), random.int(350, 750)];
    await scaledSquares(12, `${w},${h}`, [w, h], Math.trunc(w / 10), Math.trunc(h / 10));
  });

  it('size_bwh: a size given as !w,h fits the image within it', async () => {
    const random = seeded(13);
    const [w, h] = [random.int(350, 750), random.int(350, 750)];
    const s = Math.min(w, h);
    await scaledSquares(14, `!${w},${h}`, [s, s], Math.trunc(s / 10));
  });

  it('size_up: a size above the full image (sizeAboveFull, announced) scales it up', async () => {
    const s = seeded(15).int(1100, 2000);
    await scaledSquares(16, `,${s}`, [s, s], Math.trunc(s / 10));
  });

  /** Square (x, y) is in the top left corner and square (x2, y2) in the bottom right one. */
  function corners(picture: Picture, topLeft: [number, number], bottomRight: [number, number]) {
    expect([SIDE - 1, SIDE, SIDE + 1]).toContain(picture.width);
    return [
      squareMismatch(picture, [12, 12, 76, 76], ...topLeft),
      squareMismatch(picture, [912, 912, 976, 976], ...bottomRight),
    ].filter(Boolean);
  }

  it('rot_full_basic: rotations by 90, 180 and 270 degrees turn the image clockwise', async () => {
    expect(corners(await image({ rotation: '180' }), [9, 9], [0, 0])).toEqual([]);
    expect(corners(await image({ rotation: '90' }), [0, 9], [9, 0])).toEqual([]);
    expect(corners(await image({ rotation: '270' }), [9, 0], [0, 9])).toEqual([]);
  });

  it('rot_region_basic: a region rotated by 180 degrees keeps its size and square', async () => {
    const random = seeded(17);
    const mismatches: string[] = [];
    for (let i = 0; i < DRAWS; i += 1) {
      const [x, y] = [random.int(0, 9), random.int(0, 9)];
      const picture = await image({
        rotation: '180',
        region: `${x * 100 + 13},${y * 100 + 13},76,76`,
      });
      expect([75, 76, 77]).toContain(picture.width);
      mismatches.push(squareMismatch(picture, null, x, y));
    }
    expect(mismatches.filter(Boolean)).toEqual([]);
  });

  it('rot_mirror and rot_mirror_180: mirroring (announced) flips, then rotates', async () => {
    expect(corners(await image({ rotation: '!0' }), [9, 0], [0, 9])).toEqual([]);
    expect(corners(await image({ rotation: '!180' }), [0, 9], [9, 0])).toEqual([]);
  });

  it('quality_color: the color quality is in colour', async () => {
    const picture = await image({}, 'color');
    expect(picture.bands).toBe(3);
    expect(squareMismatch(picture, [313, 513, 387, 587], 3, 5)).toBe('');
  });

  it('quality_grey: the gray quality is one band of grey', async () => {
    const picture = await image({}, 'gray');
    // What Pillow calls mode L; the validator would also take RGB with r = g = b.
    expect(picture.bands).toBe(1);
  });

  it('quality_bitonal: the bitonal quality is black and white only', async () => {
    const picture = await image({}, 'bitonal', 'png');
    expect(picture.format).toBe('png');
    expect(picture.bands).toBe(1);
    const values = new Set(picture.data);
    expect([...values].sort((a, b) => a - b)).toEqual([0, 255]);
  });

  it('format_png: png is PNG', async () => {
    expect((await image({}, 'default', 'png')).format).toBe('png');
  });

  it('region, size, rotation, quality and format errors: random values give 400', async () => {
    const random = seeded(18);
    const refused: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const cases: [string, number[]][] = [
        [imageUrl({ region: random.string(6) })(), [400]],
        [imageUrl({ size: random.string(6) })(), [400]],
        [imageUrl({ rotation: random.string(4) })(), [400]],
        [imageUrl()(random.string(6)), [400]],
        [imageUrl()('default', random.string(3)), [400, 415, 503]],
      ];
      for (const [url, statuses] of cases) {
        const { status } = await get(url);
        if (!statuses.includes(status)) refused.push(`${url}: ${status}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('baseurl_redirect: the base URL redirects to info.json', async () => {
    const answer = await get(base);
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.status).toBeLessThan(400);
    expect(answer.headers.location).toBe(`http://127.0.0.1:${port}${base}/info.json`);
  });

  it('cors: info.json and images answer any origin, to GET and OPTIONS', async () => {
    for (const url of [`${base}/info.json`, imageUrl()()]) {
      for (const method of ['OPTIONS', 'GET']) {
        const answer = await get(url, { method });
        expect(answer.headers['access-control-allow-origin'], `${method} ${url}`).toBe('*');
        expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      }
    }
  });

  it('jsonld: info.json is JSON-LD when asked for it', async () => {
    const answer = await get(`${base}/info.json`, { headers: { accept: 'application/ld+json' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(JSON.parse(answer.body.toString('utf8'))['@id']).toBe(`http://127.0.0.1:${port}${base}`);
  });
});
