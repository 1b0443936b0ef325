/**
 * The PDF's text layer: each line's transcription, invisible (render mode 3) but there to select,
 * copy and search, laid over the written line. The font size fills the line's box from
 * descender to ascender and the horizontal scaling (Tz) stretches the text to the box's width,
 * so a viewer's highlight covers the line on the image.
 *
 * Each word is a marked-content span whose ActualText is the word itself, so
 * extraction (poppler's pdftotext, PDFium, Acrobat) gives it byte for byte even where the glyphs
 * might not (two characters drawn with one glyph, a combining mark). Viewers that ignore
 * ActualText (Apple's Preview, pdf.js) read the glyphs through the font's ToUnicode table.
 */
import {
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  TextRenderingMode,
  beginText,
  endMarkedContent,
  endText,
  setCharacterSqueeze,
  setFontAndSize,
  setTextMatrix,
  setTextRenderingMode,
  showText,
  type PDFPage,
} from 'pdf-lib';
import type { PageLayout } from '../../src/lib/exports/layout';
import type { Point } from '../../src/lib/polygon';
import type { TextLayerFont } from './pdfFont';

/** A box on the image, in its pixels (y downwards). */
export interface ImageBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TextPiece {
  text: string;
  box: ImageBox;
}

export function boxOf(polygon: readonly Point[]): ImageBox | null {
  if (polygon.length === 0) return null;
  const xs = polygon.map(([x]) => x);
  const ys = polygon.map(([, y]) => y);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  const width = Math.max(...xs) - left;
  const height = Math.max(...ys) - top;
  return width > 0 && height > 0 ? { left, top, width, height } : null;
}

const hasText = (text: string | null): text is string => text !== null && text.trim() !== '';

/**
 * What the layer holds, in reading order: every line with text; for a region without lines,
 * its own text over its box, a band of the box per line of text.
 */
export function textPieces(layout: PageLayout): TextPiece[] {
  const pieces: TextPiece[] = [];
  for (const region of layout.regions) {
    if (region.lines.length === 0) {
      const box = boxOf(region.polygon);
      if (!box || !hasText(region.text)) continue;
      const rows = region.text.split(/\r\n|\r|\n/);
      const band = box.height / rows.length;
      rows.forEach((text, index) => {
        if (hasText(text))
          pieces.push({ text, box: { ...box, top: box.top + index * band, height: band } });
      });
      continue;
    }
    for (const line of region.lines) {
      const box = boxOf(line.polygon);
      if (box && hasText(line.text)) pieces.push({ text: line.text, box });
    }
  }
  return pieces;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** A marked-content span whose ActualText (UTF-16BE) replaces its glyphs in extraction. */
function beginActualText(text: string): PDFOperator {
  const actualText = PDFHexString.fromText(text).toString();
  return PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
    PDFName.of('Span'),
    `<</ActualText ${actualText}>>`,
  ]);
}

/**
 * Draws the layout's text on the page. `scale` turns image pixels into PDF units; the PDF's y
 * axis goes up from the page's bottom, the image's down from its top.
 */
export function drawTextLayer(
  page: PDFPage,
  layerFont: TextLayerFont,
  layout: PageLayout,
  scale: number,
): void {
  const { font } = layerFont;
  const fontKey = page.node.newFontDictionary(font.name, font.ref);
  const pageHeight = page.getHeight();
  for (const { text, box } of textPieces(layout)) {
    // Word by word, so a double click selects a word and each word's extent is its own.
    const segments = text
      .split(/( +)/)
      .filter((segment) => segment !== '')
      .map((segment) => ({ segment, encoded: layerFont.encode(segment) }));
    const size = (box.height * scale) / layerFont.height;
    const naturalWidth = segments.reduce((sum, { encoded }) => sum + encoded.width * size, 0);
    const squeeze = naturalWidth > 0 ? (100 * box.width * scale) / naturalWidth : 100;
    const baseline = pageHeight - (box.top + box.height) * scale + layerFont.descent * size;
    page.pushOperators(
      beginText(),
      setTextRenderingMode(TextRenderingMode.Invisible),
      setFontAndSize(fontKey, round(size)),
      setCharacterSqueeze(round(squeeze)),
      setTextMatrix(1, 0, 0, 1, round(box.left * scale), round(baseline)),
    );
    for (const { segment, encoded } of segments) {
      const glyphs = showText(encoded.glyphs);
      // Spaces extract as spaces; anything else as itself, whatever its glyphs.
      if (segment.startsWith(' ')) page.pushOperators(glyphs);
      else page.pushOperators(beginActualText(segment), glyphs, endMarkedContent());
    }
    page.pushOperators(endText());
  }
}
