/** What the importer reads, by file name, and how sizes read on screen. */

/** Scans, PAGE or ALTO layouts, IIIF manifests: what the server's importer plans. */
export const ACCEPTED_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.tif', '.tiff', '.xml', '.json'];

/** The file input's `accept`: extensions, since browsers disagree on the types of TIFF and XML. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

export const UNSUPPORTED_FILE =
  'This type of file cannot be imported: choose images (JPEG, PNG, TIFF), PAGE or ALTO XML files, or IIIF manifests (JSON).';
export const EMPTY_FILE = 'This file is empty.';

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

export function isAccepted(name: string): boolean {
  return ACCEPTED_EXTENSIONS.includes(extensionOf(name));
}

/** Why a file cannot be uploaded, or null when it can. */
export function rejectionReason(file: Pick<File, 'name' | 'size'>): string | null {
  if (!isAccepted(file.name)) return UNSUPPORTED_FILE;
  if (file.size === 0) return EMPTY_FILE;
  return null;
}

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.xml': 'application/xml',
  '.json': 'application/json',
};

/** The type the browser gives, else one from the extension (Windows often gives none for TIFF). */
export function contentTypeOf(file: Pick<File, 'name' | 'type'>): string {
  return file.type || TYPES[extensionOf(file.name)] || 'application/octet-stream';
}
