/** IIIF image facts the viewer decides on before (and after) opening an image. */
import type { ImageInfo } from '@/api/types';

export const INVALID_DIMENSIONS =
  'The IIIF image cannot be displayed because it has invalid dimensions.';
/** Spec 001 §8: the image errors, and what a failed image reads. */
export const IMAGE_DETAILS_ERROR = 'An error occurred retrieving image details.';
export const MEDIA_LOADING_FAILED = 'Media loading failed';

/**
 * Why the image server's description of the image (info.json) could not be read, in words: the
 * viewer only gives "HTTP 0 attempting to load TileSource: <url>" and the like.
 */
export function imageOpenFailure(message: string): string {
  const status = /\bHTTP (\d{1,3})\b/.exec(message)?.[1];
  if (status !== undefined) {
    const code = Number(status);
    if (code === 0) {
      return 'The image server could not be reached (no answer, or an answer this page may not read).';
    }
    if (code === 401 || code === 403)
      return `The image server refused access to the image (HTTP ${code}).`;
    if (code === 404) return `The image server does not have this image (HTTP ${code}).`;
    if (code >= 500) return `The image server failed (HTTP ${code}).`;
    return `The image server answered HTTP ${code}.`;
  }
  if (/Unable to load TileSource/i.test(message)) {
    return "The image server's answer is not a IIIF image description.";
  }
  return message;
}

/** Width and height must be positive whole numbers for tiles and zones to line up. */
export function hasValidDimensions(image: Pick<ImageInfo, 'width' | 'height'>): boolean {
  return [image.width, image.height].every(
    (side) => typeof side === 'number' && Number.isInteger(side) && side > 0,
  );
}

export function infoJsonUrl(image: Pick<ImageInfo, 'url'>): string {
  return `${image.url.replace(/\/+$/, '')}/info.json`;
}

/** The full image at full size (IIIF Image API 2.1). */
export function sourceImageUrl(image: Pick<ImageInfo, 'url'>): string {
  return `${image.url.replace(/\/+$/, '')}/full/full/0/default.jpg`;
}

function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/**
 * How tiles are requested. Same-origin requests carry the session cookie anyway. A private
 * image on our API's own server elsewhere needs credentials, and that server echoes the origin
 * (when its FOLIA_CORS_ORIGINS lists the app's) so the response stays readable. Everything
 * else (public images, which Folia answers with `*`, other IIIF servers, which often do too)
 * goes anonymous, since `*` refuses credentialed requests.
 */
export function tileRequestMode(
  imageUrl: string,
  isPublic: boolean,
  pageUrl: string,
  apiBase: string,
): { crossOriginPolicy: 'Anonymous' | 'use-credentials'; ajaxWithCredentials: boolean } {
  const image = originOf(imageUrl, pageUrl);
  const page = originOf(pageUrl, pageUrl);
  const api = originOf(apiBase, pageUrl);
  const credentials = !isPublic && image !== null && image !== page && image === api;
  return credentials
    ? { crossOriginPolicy: 'use-credentials', ajaxWithCredentials: true }
    : { crossOriginPolicy: 'Anonymous', ajaxWithCredentials: false };
}

/** The size check the IIIF server's answer must pass; null when it matches. */
export function sizeMismatch(
  image: Pick<ImageInfo, 'width' | 'height'>,
  source: { width: number; height: number },
): string | null {
  if (source.width === image.width && source.height === image.height) return null;
  return `The image server reports a size of ${source.width} × ${source.height} pixels, but the image is recorded as ${image.width} × ${image.height}. Zones may not line up with the image.`;
}
