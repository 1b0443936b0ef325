/**
 * The PDF export: one PDF page per page at its image's size (1 image pixel = 1 PDF unit), the
 * image over the whole page and the transcriptions as an invisible, selectable and searchable
 * text layer over the written lines (pdfText.ts), in reading order.
 */
import { PDFDocument } from 'pdf-lib';
import type { PageLayout } from '../../src/lib/exports/layout';
import { embedTextLayerFont } from './pdfFont';
import { drawFrame, embedPageImage, type PageImage } from './pdfImage';
import { drawTextLayer } from './pdfText';

export interface PdfPage {
  layout: PageLayout;
  image: PageImage | null;
}

export interface PdfOptions {
  title?: string;
  /** Told when a page's image cannot be used (unreadable, neither JPEG nor PNG); the page is kept. */
  onWarning?: (message: string) => void;
}

/** Viewers (Acrobat first) refuse pages larger than 14,400 units a side: bigger ones shrink. */
const MAX_SIDE = 14_400;
/** A page whose size is unknown and has no image to take it from: A4. */
const A4: [number, number] = [595.28, 841.89];

export async function writePdf(pages: PdfPage[], options: PdfOptions = {}): Promise<Uint8Array> {
  if (pages.length === 0) throw new RangeError('A PDF export needs at least one page.');
  const doc = await PDFDocument.create();
  if (options.title) doc.setTitle(options.title, { showInWindowTitleBar: true });
  doc.setCreator('Folia');
  doc.setProducer('Folia (pdf-lib)');
  const font = await embedTextLayerFont(doc);

  for (const { layout, image } of pages) {
    const embedded = image ? await embedPageImage(doc, image) : null;
    if (typeof embedded === 'string') options.onWarning?.(`${layout.pageName}: ${embedded}.`);
    const picture = typeof embedded === 'string' ? null : embedded;
    // Polygons are in the layout's pixels; without them, the image's own size.
    const [width, height] =
      layout.width > 0 && layout.height > 0
        ? [layout.width, layout.height]
        : picture
          ? [picture.width, picture.height]
          : A4;
    const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    const page = doc.addPage([width * scale, height * scale]);
    if (picture) {
      page.drawImage(picture, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
    } else {
      drawFrame(page);
    }
    drawTextLayer(page, font, layout, scale);
  }
  return doc.save();
}
