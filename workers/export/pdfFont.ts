/**
 * The font of the PDF's text layer: DejaVu Sans, embedded as a subset of the glyphs used. The
 * text is never painted (render mode 3), so the font's shapes do not matter, only its reach: it
 * covers Latin with its accents and combining marks, ß, the long s, Greek and Cyrillic. Each
 * character is a glyph of its own that a viewer maps back to it through the font's ToUnicode
 * table, the characters the font lacks included (glyphEncoder.ts); the words' exact text also
 * rides along as ActualText (pdfText.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { glyphEncoder, type EncodedText } from './glyphEncoder';

const require = createRequire(import.meta.url);
const FONT_FILE = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

/** Read and parsed once per process: the worker writes one PDF, the tests several. */
let loaded: Promise<{ bytes: Uint8Array; coverage: fontkit.Font }> | undefined;
function loadFont() {
  loaded ??= readFile(FONT_FILE).then((bytes) => ({ bytes, coverage: fontkit.create(bytes) }));
  return loaded;
}

export interface TextLayerFont {
  font: PDFFont;
  /** The text as glyphs of the font, control characters as spaces. */
  encode(text: string): EncodedText;
  /** The font's height from descender to ascender at size 1, and the descender's depth below the baseline. */
  height: number;
  descent: number;
}

export async function embedTextLayerFont(doc: PDFDocument): Promise<TextLayerFont> {
  const { bytes, coverage } = await loadFont();
  doc.registerFontkit(fontkit);
  // Only pdf-lib's own encoding, glyphEncoder's fallback, shapes text: one glyph per character
  // there too.
  const font = await doc.embedFont(bytes, {
    subset: true,
    features: { liga: false, clig: false, dlig: false, hlig: false },
  });
  const glyphs = glyphEncoder(font, coverage);
  const { ascent, descent, unitsPerEm } = coverage;
  // Control characters (a tab, say) take a space's place.
  // eslint-disable-next-line no-control-regex
  const encode = (text: string) => glyphs(text.replace(/[\u0000-\u001F\u007F-\u009F]/g, ' '));

  return {
    font,
    encode,
    height: (ascent - descent) / unitsPerEm,
    descent: -descent / unitsPerEm,
  };
}
