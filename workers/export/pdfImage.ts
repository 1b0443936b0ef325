/**
 * The page image of the PDF: a JPEG is embedded as it is (no re-encoding, no loss), a PNG
 * through pdf-lib's decoder. The format is read from the file's first bytes, since a IIIF
 * server's "default.jpg" or a stored mime type can be wrong. Anything else (TIFF, WebP) or a file
 * pdf-lib cannot read gives no image: the page stays blank with a frame, the text layer on it.
 */
import { grayscale, type PDFDocument, type PDFImage, type PDFPage } from 'pdf-lib';

export interface PageImage {
  bytes: Uint8Array;
  mime: string;
}

const startsWith = (bytes: Uint8Array, magic: readonly number[]) =>
  magic.every((byte, index) => bytes[index] === byte);

export function imageKind(image: PageImage): 'jpeg' | 'png' | null {
  if (startsWith(image.bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(image.bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  return null;
}

/** The embedded image, or why there is none (for the worker's log). */
export async function embedPageImage(
  doc: PDFDocument,
  image: PageImage,
): Promise<PDFImage | string> {
  const kind = imageKind(image);
  if (!kind) return `the image (${image.mime}) is neither JPEG nor PNG`;
  try {
    return kind === 'jpeg' ? await doc.embedJpg(image.bytes) : await doc.embedPng(image.bytes);
  } catch (error) {
    return `the ${kind.toUpperCase()} image could not be read: ${(error as Error).message}`;
  }
}

/** Where there is no image: a thin grey frame, so the page's extent shows. */
export function drawFrame(page: PDFPage): void {
  const inset = 0.5;
  page.drawRectangle({
    x: inset,
    y: inset,
    width: page.getWidth() - 2 * inset,
    height: page.getHeight() - 2 * inset,
    borderWidth: 0.5,
    borderColor: grayscale(0.6),
  });
}
