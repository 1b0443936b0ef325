/**
 * The font of the PDF's text layer: DejaVu Sans, embedded as a subset of the glyphs used. The
 * text is never painted (render mode 3), so the font's shapes do not matter, only its reach: it
 * covers Latin with its accents and combining marks, ß, the long s, Greek and Cyrillic, so a
 * viewer maps each glyph back to its character through the font's ToUnicode table.
 *
 * A character the font lacks (a Private-Use-Area medieval sign, say) would be glyph 0, which
 * pdf-lib leaves out of ToUnicode and which every such character would share. Each one gets a
 * glyph of its own instead (a copy of glyph 0, never painted) mapped to it in ToUnicode, so it
 * extracts as itself too (missingGlyphs.ts). The line's exact text also rides along as
 * ActualText (pdfText.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFHexString, type PDFDocument, type PDFFont } from 'pdf-lib';
import { missingGlyphs } from './missingGlyphs';

const require = createRequire(import.meta.url);
const FONT_FILE = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

/** Read and parsed once per process: the worker writes one PDF, the tests several. */
let loaded: Promise<{ bytes: Uint8Array; coverage: fontkit.Font }> | undefined;
function loadFont() {
  loaded ??= readFile(FONT_FILE).then((bytes) => ({ bytes, coverage: fontkit.create(bytes) }));
  return loaded;
}

export interface EncodedText {
  /** The glyphs to show (Tj's operand). */
  glyphs: PDFHexString;
  /** The advance at font size 1. */
  width: number;
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
  // Ligatures would join characters into one glyph; one glyph per character keeps selections
  // and copies exact.
  const font = await doc.embedFont(bytes, {
    subset: true,
    features: { liga: false, clig: false, dlig: false, hlig: false },
  });
  const missing = missingGlyphs(font, coverage);
  const { ascent, descent, unitsPerEm } = coverage;

  const encode = (text: string): EncodedText => {
    let hex = '';
    let width = 0;
    let run = '';
    const flush = () => {
      if (run === '') return;
      hex += font.encodeText(run).asString();
      width += font.widthOfTextAtSize(run, 1);
      run = '';
    };
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
        run += ' ';
      } else if (coverage.hasGlyphForCodePoint(code)) {
        run += char;
      } else {
        flush();
        hex += missing.glyphFor(code);
        width += missing.width;
      }
    }
    flush();
    return { glyphs: PDFHexString.of(hex), width };
  };

  return {
    font,
    encode,
    height: (ascent - descent) / unitsPerEm,
    descent: -descent / unitsPerEm,
  };
}
