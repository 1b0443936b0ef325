/**
 * Text into glyphs of the text layer's font, one glyph per character and one character per
 * glyph, so every glyph maps back to exactly its character through the font's ToUnicode table.
 *
 * pdf-lib's own encodeText shapes the text first (fontkit's layout: substitutions, marks), which
 * the text layer does not need since it is never painted, and which takes most of the export's
 * time; and it turns every character the font lacks into the same glyph 0, which it leaves out
 * of ToUnicode. So this reaches into pdf-lib's subset embedder (pdf-lib 1.17): each character
 * gets a subset glyph of its own (the font's glyph for it; a copy of it when another character
 * already took that glyph; a copy of glyph 0 when the font lacks it, a Private-Use-Area sign
 * say), registered with the embedder, which writes it into the widths (W) and ToUnicode tables
 * like any glyph. Should pdf-lib's internals ever differ, pdf-lib's encodeText serves, with
 * U+FFFD for the characters the font lacks (they still extract exactly through ActualText).
 */
import type fontkit from '@pdf-lib/fontkit';
import { PDFHexString, type PDFFont } from 'pdf-lib';

export interface EncodedText {
  /** The glyphs to show (Tj's operand). */
  glyphs: PDFHexString;
  /** The advance at font size 1. */
  width: number;
}

/** What the embedder's W and ToUnicode tables read of a glyph. */
interface EmbeddedGlyph {
  id: number | string;
  codePoints: number[];
  advanceWidth: number;
}

/** pdf-lib's CustomFontSubsetEmbedder, as far as this file uses it. */
interface SubsetEmbedder {
  subset: { glyphs: number[]; includeGlyph(glyphId: number): number };
  glyphs: EmbeddedGlyph[];
  glyphIdMap: Map<number | string, number>;
  glyphCache: { invalidate(): void };
}

function subsetEmbedderOf(font: PDFFont): SubsetEmbedder | null {
  const embedder = (font as unknown as { embedder?: Partial<SubsetEmbedder> }).embedder;
  const fits =
    Array.isArray(embedder?.subset?.glyphs) &&
    typeof embedder?.subset?.includeGlyph === 'function' &&
    Array.isArray(embedder?.glyphs) &&
    embedder?.glyphIdMap instanceof Map &&
    typeof embedder?.glyphCache?.invalidate === 'function';
  return fits ? (embedder as SubsetEmbedder) : null;
}

const hex4 = (id: number) => id.toString(16).toUpperCase().padStart(4, '0');

/** `font` embedded from the same file `coverage` was read from. */
export function glyphEncoder(font: PDFFont, coverage: fontkit.Font): (text: string) => EncodedText {
  const embedder = subsetEmbedderOf(font);
  return embedder ? ownGlyphs(embedder, coverage) : pdfLibGlyphs(font, coverage);
}

function ownGlyphs(embedder: SubsetEmbedder, coverage: fontkit.Font) {
  const byCodePoint = new Map<number, { hex: string; width: number }>();
  const claimed = new Set<number>();
  const glyphOf = (codePoint: number) => {
    let glyph = byCodePoint.get(codePoint);
    if (glyph) return glyph;
    const fontGlyph = coverage.hasGlyphForCodePoint(codePoint)
      ? coverage.glyphForCodePoint(codePoint)
      : coverage.getGlyph(0);
    let subsetId: number;
    if (fontGlyph.id !== 0 && !claimed.has(fontGlyph.id)) {
      subsetId = embedder.subset.includeGlyph(fontGlyph.id);
      claimed.add(fontGlyph.id);
    } else {
      embedder.subset.glyphs.push(fontGlyph.id);
      subsetId = embedder.subset.glyphs.length - 1;
    }
    const id = `U+${codePoint.toString(16)}`;
    const { advanceWidth } = fontGlyph;
    embedder.glyphs[subsetId - 1] = { id, codePoints: [codePoint], advanceWidth };
    embedder.glyphIdMap.set(id, subsetId);
    embedder.glyphCache.invalidate();
    glyph = { hex: hex4(subsetId), width: advanceWidth / coverage.unitsPerEm };
    byCodePoint.set(codePoint, glyph);
    return glyph;
  };
  return (text: string): EncodedText => {
    let hex = '';
    let width = 0;
    for (const char of text) {
      const glyph = glyphOf(char.codePointAt(0)!);
      hex += glyph.hex;
      width += glyph.width;
    }
    return { glyphs: PDFHexString.of(hex), width };
  };
}

function pdfLibGlyphs(font: PDFFont, coverage: fontkit.Font) {
  return (text: string): EncodedText => {
    const drawn = Array.from(text, (char) =>
      coverage.hasGlyphForCodePoint(char.codePointAt(0)!) ? char : '\uFFFD',
    ).join('');
    return { glyphs: font.encodeText(drawn), width: font.widthOfTextAtSize(drawn, 1) };
  };
}
