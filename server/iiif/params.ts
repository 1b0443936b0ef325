/**
 * IIIF Image API 2.1 request parameters: {region}/{size}/{rotation}/{quality}.{format}
 * (https://iiif.io/api/image/2.1/#image-request-parameters), resolved against the image's size
 * into exact pixel boxes, so two URLs that mean the same output share one cached rendering.
 */
import { validationError } from '../errors';

/** Largest output side served; info.json advertises it as maxWidth/maxHeight. */
export const MAX_SIZE = 10000;

export const QUALITIES = ['default', 'color', 'gray', 'bitonal'] as const;
export type Quality = (typeof QUALITIES)[number];
export const FORMATS = ['jpg', 'png'] as const;
export type Format = (typeof FORMATS)[number];

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ImageRequest {
  /** In full-resolution image pixels, clipped to the image. */
  region: Box;
  /** Output size before rotation. */
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  mirror: boolean;
  quality: Exclude<Quality, 'color'>;
  format: Format;
}

export interface RawParams {
  region: string;
  size: string;
  rotation: string;
  /** `{quality}.{format}` */
  file: string;
}

const INT = /^\d+$/;
const FLOAT = /^(\d+(\.\d*)?|\.\d+)$/;

function invalid(attr: string, detail: string) {
  return validationError(attr, detail, 'invalid');
}

function parseRegion(value: string, width: number, height: number): Box {
  if (value === 'full') return { x: 0, y: 0, w: width, h: height };
  if (value === 'square') {
    const side = Math.min(width, height);
    return {
      x: Math.floor((width - side) / 2),
      y: Math.floor((height - side) / 2),
      w: side,
      h: side,
    };
  }
  const pct = value.startsWith('pct:');
  const parts = (pct ? value.slice(4) : value).split(',');
  if (parts.length !== 4 || !parts.every((part) => (pct ? FLOAT : INT).test(part))) {
    throw invalid(
      'region',
      `Invalid region "${value}": expected full, square, x,y,w,h or pct:x,y,w,h.`,
    );
  }
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  let x: number, y: number, right: number, bottom: number;
  if (pct) {
    // Edges are rounded rather than sizes, so adjacent percentage tiles meet without gaps.
    x = Math.round((a / 100) * width);
    y = Math.round((b / 100) * height);
    right = Math.round(((a + c) / 100) * width);
    bottom = Math.round(((b + d) / 100) * height);
  } else {
    [x, y, right, bottom] = [a, b, a + c, b + d];
  }
  if (c <= 0 || d <= 0 || right <= x || bottom <= y) {
    throw invalid('region', `Invalid region "${value}": width and height must be above zero.`);
  }
  if (x >= width || y >= height) {
    throw invalid(
      'region',
      `Region "${value}" lies outside the image (${width}×${height} pixels).`,
    );
  }
  right = Math.min(right, width);
  bottom = Math.min(bottom, height);
  return { x, y, w: right - x, h: bottom - y };
}

function parseSize(value: string, region: Box): { width: number; height: number } {
  const { w: rw, h: rh } = region;
  let width: number;
  let height: number;
  const fit = (maxW: number, maxH: number) => {
    const scale = Math.min(maxW / rw, maxH / rh);
    return {
      width: Math.min(maxW, Math.max(1, Math.round(rw * scale))),
      height: Math.min(maxH, Math.max(1, Math.round(rh * scale))),
    };
  };
  const bad = () =>
    invalid('size', `Invalid size "${value}": expected full, max, w,, ,h, pct:n, w,h or !w,h.`);
  if (value === 'full') {
    ({ w: width, h: height } = region);
  } else if (value === 'max') {
    if (rw <= MAX_SIZE && rh <= MAX_SIZE) return { width: rw, height: rh };
    return fit(MAX_SIZE, MAX_SIZE);
  } else if (value.startsWith('pct:')) {
    const pct = value.slice(4);
    if (!FLOAT.test(pct) || Number(pct) <= 0) throw bad();
    width = Math.max(1, Math.round((rw * Number(pct)) / 100));
    height = Math.max(1, Math.round((rh * Number(pct)) / 100));
  } else {
    const best = value.startsWith('!');
    const parts = (best ? value.slice(1) : value).split(',');
    if (parts.length !== 2) throw bad();
    const [ws, hs] = parts as [string, string];
    if ((ws !== '' && !INT.test(ws)) || (hs !== '' && !INT.test(hs))) throw bad();
    if (ws === '' && hs === '') throw bad();
    if ((best && (ws === '' || hs === '')) || Number(ws || 1) === 0 || Number(hs || 1) === 0) {
      throw bad();
    }
    if (ws !== '' && Number(ws) > MAX_SIZE) throw tooLarge(value);
    if (hs !== '' && Number(hs) > MAX_SIZE) throw tooLarge(value);
    if (best) return fit(Number(ws), Number(hs));
    if (hs === '') {
      width = Number(ws);
      height = Math.max(1, Math.round((rh * width) / rw));
    } else if (ws === '') {
      height = Number(hs);
      width = Math.max(1, Math.round((rw * height) / rh));
    } else {
      width = Number(ws);
      height = Number(hs);
    }
  }
  if (width > MAX_SIZE || height > MAX_SIZE) throw tooLarge(value);
  return { width, height };
}

function tooLarge(value: string) {
  return invalid(
    'size',
    `Size "${value}" is too large: at most ${MAX_SIZE} pixels a side (use "max" for the largest).`,
  );
}

function parseRotation(value: string): { rotation: ImageRequest['rotation']; mirror: boolean } {
  const mirror = value.startsWith('!');
  const number = mirror ? value.slice(1) : value;
  if (!FLOAT.test(number) || Number(number) > 360) {
    throw invalid('rotation', `Invalid rotation "${value}": expected a number from 0 to 360.`);
  }
  const degrees = Number(number);
  // Arbitrary angles are refused rather than rendered: level 2 only asks for multiples of 90.
  if (degrees % 90 !== 0) {
    throw invalid(
      'rotation',
      `Rotation "${value}" is not supported: only 0, 90, 180 and 270 (optionally mirrored with !).`,
    );
  }
  return { rotation: (degrees % 360) as ImageRequest['rotation'], mirror };
}

function parseQualityFormat(value: string): Pick<ImageRequest, 'quality' | 'format'> {
  const dot = value.lastIndexOf('.');
  if (dot < 0) {
    throw invalid('format', `Missing format in "${value}": expected {quality}.jpg or .png.`);
  }
  const quality = value.slice(0, dot);
  const format = value.slice(dot + 1);
  if (!(QUALITIES as readonly string[]).includes(quality)) {
    throw invalid(
      'quality',
      `Invalid quality "${quality}": expected default, color, gray or bitonal.`,
    );
  }
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw invalid('format', `Unsupported format "${format}": this server answers jpg or png.`);
  }
  return {
    quality: quality === 'color' ? 'default' : (quality as ImageRequest['quality']),
    format: format as Format,
  };
}

/** Throws a structured 400 naming the faulty parameter. */
export function parseImageRequest(
  params: RawParams,
  image: { width: number; height: number },
): ImageRequest {
  const region = parseRegion(params.region, image.width, image.height);
  const size = parseSize(params.size, region);
  return {
    region,
    ...size,
    ...parseRotation(params.rotation),
    ...parseQualityFormat(params.file),
  };
}

/** One string per distinct output: the cache key and ETag are derived from it. */
export function canonicalRequest(request: ImageRequest): string {
  const { x, y, w, h } = request.region;
  return [
    `${x},${y},${w},${h}`,
    `${request.width},${request.height}`,
    `${request.mirror ? '!' : ''}${request.rotation}`,
    `${request.quality}.${request.format}`,
  ].join('/');
}

/**
 * The request's canonical URI path under the image's base URL, as Image API 2.1 §4.7 spells
 * it (full, or pixels for the region; full, `w,` or `w,h` for the size), sent as the
 * `Link: rel="canonical"` header so caches and clients can tell equal requests apart.
 */
export function canonicalPath(
  request: ImageRequest,
  image: { width: number; height: number },
): string {
  const { x, y, w, h } = request.region;
  const whole = x === 0 && y === 0 && w === image.width && h === image.height;
  const region = whole ? 'full' : `${x},${y},${w},${h}`;
  let size: string;
  if (request.width === w && request.height === h) size = 'full';
  else if (Math.max(1, Math.round((h * request.width) / w)) === request.height)
    size = `${request.width},`;
  else size = `${request.width},${request.height}`;
  const rotation = `${request.mirror ? '!' : ''}${request.rotation}`;
  return `${region}/${size}/${rotation}/${request.quality}.${request.format}`;
}
