/**
 * Glyphs for the characters the text layer's font lacks, one per character, so each maps back
 * to itself through ToUnicode. pdf-lib has no API for it: this reaches into its subset embedder
 * (pdf-lib 1.17), adding a copy of glyph 0 to the font's subset and telling the embedder the copy
 * stands for the character, which it then writes into the widths (W) and ToUnicode tables like
 * any glyph. Should pdf-lib's internals ever differ, the characters fall back to U+FFFD glyphs
 * (still extracting exactly through the lines' ActualText).
 */
import type fontkit from '@pdf-lib/fontkit';
import type { PDFFont } from 'pdf-lib';

/** What the embedder's W and ToUnicode tables read of a glyph. */
interface EmbeddedGlyph {
  id: number | string;
  codePoints: number[];
  advanceWidth: number;
}

/** pdf-lib's CustomFontSubsetEmbedder, as far as this file uses it. */
interface SubsetEmbedder {
  subset: { glyphs: number[] };
  glyphs: EmbeddedGlyph[];
  glyphIdMap: Map<number | string, number>;
  glyphCache: { invalidate(): void };
}

function subsetEmbedderOf(font: PDFFont): SubsetEmbedder | null {
  const embedder = (font as unknown as { embedder?: Partial<SubsetEmbedder> }).embedder;
  const fits =
    Array.isArray(embedder?.subset?.glyphs) &&
    Array.isArray(embedder?.glyphs) &&
    embedder?.glyphIdMap instanceof Map &&
    typeof embedder?.glyphCache?.invalidate === 'function';
  return fits ? (embedder as SubsetEmbedder) : null;
}

export interface MissingGlyphs {
  /** The glyph (4 hex digits) standing for a character the font lacks. */
  glyphFor(codePoint: number): string;
  /** Their advance at font size 1 (glyph 0's, or U+FFFD's). */
  width: number;
}

const hex4 = (id: number) => id.toString(16).toUpperCase().padStart(4, '0');

export function missingGlyphs(font: PDFFont, coverage: fontkit.Font): MissingGlyphs {
  const advanceWidth = coverage.getGlyph(0).advanceWidth;
  const width = advanceWidth / coverage.unitsPerEm;
  const embedder = subsetEmbedderOf(font);
  if (!embedder) {
    const replacement = font.encodeText('\uFFFD').asString();
    return { glyphFor: () => replacement, width: font.widthOfTextAtSize('\uFFFD', 1) };
  }
  const glyphs = new Map<number, string>();
  return {
    width,
    glyphFor(codePoint) {
      let glyph = glyphs.get(codePoint);
      if (glyph === undefined) {
        embedder.subset.glyphs.push(0);
        const subsetId = embedder.subset.glyphs.length - 1;
        const id = `missing:${codePoint}`;
        embedder.glyphs[subsetId - 1] = { id, codePoints: [codePoint], advanceWidth };
        embedder.glyphIdMap.set(id, subsetId);
        embedder.glyphCache.invalidate();
        glyph = hex4(subsetId);
        glyphs.set(codePoint, glyph);
      }
      return glyph;
    },
  };
}
