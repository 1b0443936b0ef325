/**
 * The font of the PDF's text layer: DejaVu Sans, embedded as a subset of the glyphs used. The
 * text is never painted (render mode 3), so the font's shapes do not matter, only its reach: it
 * covers Latin with its accents and combining marks, ß, the long s, Greek and Cyrillic, so a
 * viewer maps each glyph back to its character through the font's ToUnicode table.
 *
 * A character the font lacks (a Private-Use-Area medieval sign, say) would become glyph 0,
 * which pdf-lib leaves out of ToUnicode, and two different ones would be the same glyph: it is
 * drawn as U+FFFD instead, and the line's exact text rides along as ActualText (pdfText.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

const require = createRequire(import.meta.url);
const FONT_FILE = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const REPLACEMENT = '\uFFFD';

/** Read and parsed once per process: the worker writes one PDF, the tests several. */
let loaded: Promise<{ bytes: Uint8Array; coverage: fontkit.Font }> | undefined;
function loadFont() {
  loaded ??= readFile(FONT_FILE).then((bytes) => ({ bytes, coverage: fontkit.create(bytes) }));
  return loaded;
}

export interface TextLayerFont {
  font: PDFFont;
  /** The text as it is drawn: characters the font lacks as U+FFFD, control characters as spaces. */
  drawable(text: string): string;
  /** The font's height from descender to ascender at size 1, and the descender's depth below the baseline. */
  height: number;
  descent: number;
}

export async function embedTextLayerFont(doc: PDFDocument): Promise<TextLayerFont> {
  const { bytes, coverage } = await loadFont();
  doc.registerFontkit(fontkit);
  // Ligatures would join characters into one glyph; one glyph per character keeps selections
  // and copies exact in viewers that ignore ActualText.
  const font = await doc.embedFont(bytes, {
    subset: true,
    features: { liga: false, clig: false, dlig: false, hlig: false },
  });
  // From the font's own metrics: pdf-lib's heightAtSize without the descender is off by one scale.
  const { ascent, descent, unitsPerEm } = coverage;
  return {
    font,
    drawable: (text) =>
      Array.from(text, (char) => {
        const code = char.codePointAt(0) ?? 0;
        if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return ' ';
        return coverage.hasGlyphForCodePoint(code) ? char : REPLACEMENT;
      }).join(''),
    height: (ascent - descent) / unitsPerEm,
    descent: -descent / unitsPerEm,
  };
}
