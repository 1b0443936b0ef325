/**
 * The PDF export read back as a reader's tools read it: poppler's pdftotext for the text layer
 * (what a viewer selects, copies and searches), pdfinfo, pdfimages and pdftoppm for the pages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDocument, PDFName, type PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePdf, type PdfPage } from '../../../workers/export/pdf';
import { line, page, rect, region } from './layouts';
import { bboxLines, hasPoppler, poppler } from './poppler';

const NOTE = hasPoppler ? '' : ' (skipped: needs poppler-utils)';

// Page 1: lines with accents, a combining mark, a long s and a Private-Use-Area character;
// a line without text and a blank one (both left out); a region transcribed without lines.
const PAGE_1 = page('Folio 1r', 600, 400, [
  region(rect(10, 10, 590, 200), [
    line('Été de ſaint Martin', rect(20, 20, 500, 60)),
    line('Cafe\u0301 \uE5DC und Straße', rect(20, 80, 400, 110)),
    line(null, rect(20, 120, 300, 140)),
    line('   ', rect(20, 150, 300, 170)),
  ]),
  region(rect(20, 300, 300, 380), [], 'Notes\nmarginales'),
]);
// Page 2: reading order against the geometry: the bottom region is read first. U+F0001 is
// beyond the BMP (a surrogate pair in UTF-16) and in no font.
const PAGE_2 = page('Folio 1v', 500, 700, [
  region(rect(20, 590, 480, 660), [line('ꝛc. la fin \uE8BF \u{F0001}', rect(30, 600, 450, 650))]),
  region(rect(20, 40, 480, 140), [
    line('Im Anfang war das Wort', rect(30, 50, 470, 90)),
    line('æ œ ȝ þ ð', rect(30, 100, 250, 130)),
  ]),
]);
// Page 3: no image.
const PAGE_3 = page('Folio 2r', 300, 200, [
  region(rect(5, 5, 295, 195), [line('Blank page text', rect(10, 10, 200, 40))]),
]);

const EXPECTED = [
  ['Été de ſaint Martin', 'Cafe\u0301 \uE5DC und Straße', 'Notes', 'marginales'],
  ['ꝛc. la fin \uE8BF \u{F0001}', 'Im Anfang war das Wort', 'æ œ ȝ þ ð'],
  ['Blank page text'],
];
/** Each expected line's box (image pixels: left, top, right, bottom). */
const BOXES = [
  [
    [20, 20, 500, 60],
    [20, 80, 400, 110],
    [20, 300, 300, 340],
    [20, 340, 300, 380],
  ],
  [
    [30, 600, 450, 650],
    [30, 50, 470, 90],
    [30, 100, 250, 130],
  ],
  [[10, 10, 200, 40]],
];

/** Text per page, empty lines dropped; pages end with a form feed. */
const pagesOf = (text: string) =>
  text
    .split('\f')
    .slice(0, -1)
    .map((pageText) => pageText.split('\n').filter((row) => row !== ''));

/**
 * The PDF with its ActualText spans taken out of the pages' content: what a viewer that ignores
 * ActualText reads, the glyphs through the font's ToUnicode table.
 */
async function withoutActualText(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  for (const pdfPage of doc.getPages()) {
    const contents = pdfPage.node.Contents()!;
    const streams =
      contents instanceof PDFArray
        ? contents.asArray().map((ref) => doc.context.lookup(ref))
        : [contents];
    const content = streams
      .map((stream) =>
        Buffer.from(decodePDFRawStream(stream as PDFRawStream).decode()).toString('latin1'),
      )
      .join('\n');
    const stripped = content
      .replace(/\/Span <<\/ActualText <[0-9A-Fa-f]*>>> BDC/g, '')
      .replace(/\bEMC\b/g, '');
    expect(content).toContain('/ActualText');
    expect(stripped).not.toContain('/ActualText');
    pdfPage.node.set(
      PDFName.of('Contents'),
      doc.context.register(doc.context.flateStream(stripped)),
    );
  }
  return doc.save();
}

let dir: string;
let file: string;
let warnings: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-pdf-'));
  const jpeg = await sharp({
    create: { width: 600, height: 400, channels: 3, background: '#e8dcc0' },
  })
    .jpeg()
    .toBuffer();
  const png = await sharp({
    create: { width: 500, height: 700, channels: 3, background: '#d0d8e0' },
  })
    .png()
    .toBuffer();
  const pages: PdfPage[] = [
    { layout: PAGE_1, image: { bytes: jpeg, mime: 'image/jpeg' } },
    { layout: PAGE_2, image: { bytes: png, mime: 'image/png' } },
    { layout: PAGE_3, image: null },
  ];
  warnings = [];
  const pdf = await writePdf(pages, {
    title: 'Registre – 1789',
    onWarning: (message) => warnings.push(message),
  });
  file = path.join(dir, 'export.pdf');
  fs.writeFileSync(file, pdf);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasPoppler)(`the PDF export${NOTE}`, () => {
  it('has one page per page, at its image size, with its image and its metadata', () => {
    const info = poppler('pdfinfo', ['-f', '1', '-l', '3', file]);
    expect(info).toMatch(/^Pages: +3$/m);
    expect(info).toMatch(/^Page +1 size: +600 x 400 pts$/m);
    expect(info).toMatch(/^Page +2 size: +500 x 700 pts$/m);
    expect(info).toMatch(/^Page +3 size: +300 x 200 pts$/m);
    expect(info).toMatch(/^Title: +Registre – 1789$/m);
    expect(info).toMatch(/^Creator: +Folia$/m);

    // page num type width height color comp bpc enc …
    const images = poppler('pdfimages', ['-list', file])
      .split('\n')
      .slice(2)
      .filter((row) => row.trim() !== '')
      .map((row) => row.trim().split(/\s+/));
    expect(
      images.map(([pageNumber, , type, width, height, , , , enc]) => [
        pageNumber,
        type,
        width,
        height,
        enc,
      ]),
    ).toEqual([
      ['1', 'image', '600', '400', 'jpeg'],
      ['2', 'image', '500', '700', 'image'],
    ]);
    // A page given without image is not a problem to report.
    expect(warnings).toEqual([]);
  });

  it('extracts to the transcriptions, line by line, in reading order', () => {
    // Content order: the reading order, whatever the geometry.
    expect(pagesOf(poppler('pdftotext', ['-raw', file, '-']))).toEqual(EXPECTED);
    // pdftotext's own reading of the layout, where it agrees with the reading order.
    const plain = pagesOf(poppler('pdftotext', [file, '-']));
    expect(plain[0]).toEqual(EXPECTED[0]);
    expect(plain[2]).toEqual(EXPECTED[2]);
  });

  it('extracts the same from its glyphs alone, for viewers that ignore ActualText', async () => {
    const glyphsOnly = path.join(dir, 'glyphs-only.pdf');
    fs.writeFileSync(glyphsOnly, await withoutActualText(fs.readFileSync(file)));
    // Each character the font lacks (U+E5DC, U+E8BF) has a glyph of its own, mapped back to it.
    expect(pagesOf(poppler('pdftotext', ['-raw', glyphsOnly, '-']))).toEqual(EXPECTED);
  });

  it('lays each line over its box on the image', () => {
    const pages = bboxLines(file);
    expect(pages.map((lines) => lines.length)).toEqual(EXPECTED.map((texts) => texts.length));
    EXPECTED.forEach((texts, pageIndex) => {
      texts.forEach((text, index) => {
        const found = pages[pageIndex]!.find((candidate) => candidate.text === text);
        expect(found, `${text} on page ${pageIndex + 1}`).toBeDefined();
        const [left, top, right, bottom] = BOXES[pageIndex]![index]!;
        // Inside the box, and filling it (the font's descender to ascender, the box's width).
        expect(found!.xMin).toBeCloseTo(left!, 0);
        expect(found!.yMin).toBeCloseTo(top!, 0);
        expect(found!.xMax).toBeCloseTo(right!, 0);
        expect(found!.yMax).toBeCloseTo(bottom!, 0);
      });
    });
  });

  it('paints no text: a page without image is blank within its frame', async () => {
    const prefix = path.join(dir, 'page3');
    poppler('pdftoppm', ['-r', '72', '-f', '3', '-l', '3', '-gray', '-png', file, prefix]);
    const rendered = fs.readdirSync(dir).find((name) => name.startsWith('page3'));
    const { data, info } = await sharp(path.join(dir, rendered!))
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 200]);
    const darkest = (inset: number) => {
      let min = 255;
      for (let y = inset; y < info.height - inset; y++) {
        for (let x = inset; x < info.width - inset; x++)
          min = Math.min(min, data[y * info.width + x]!);
      }
      return min;
    };
    expect(darkest(0)).toBeLessThan(200); // the frame
    expect(darkest(3)).toBe(255); // and nothing inside it, though it holds a line of text
  });
});

describe.skipIf(!hasPoppler)(`the PDF export of unusual pages${NOTE}`, () => {
  it('keeps a page whose image cannot be read, framed, with its text, and says why', async () => {
    const messages: string[] = [];
    const layout = page('Broken', 300, 200, [
      region(rect(5, 5, 295, 195), [line('Still searchable', rect(10, 10, 200, 40))]),
    ]);
    const pdf = await writePdf(
      [{ layout, image: { bytes: new TextEncoder().encode('not a JPEG'), mime: 'image/jpeg' } }],
      { onWarning: (message) => messages.push(message) },
    );
    const broken = path.join(dir, 'broken.pdf');
    fs.writeFileSync(broken, pdf);
    expect(messages).toEqual(['Broken: the image (image/jpeg) is neither JPEG nor PNG.']);
    expect(poppler('pdfimages', ['-list', broken]).trim().split('\n')).toHaveLength(2);
    expect(pagesOf(poppler('pdftotext', [broken, '-']))).toEqual([['Still searchable']]);
  });

  it('takes its size from the image when the page has none', async () => {
    const png = await sharp({
      create: { width: 120, height: 80, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    const sizeless = path.join(dir, 'sizeless.pdf');
    fs.writeFileSync(
      sizeless,
      await writePdf([
        { layout: page('Sizeless', 0, 0, []), image: { bytes: png, mime: 'image/png' } },
      ]),
    );
    expect(poppler('pdfinfo', [sizeless])).toMatch(/^Page size: +120 x 80 pts$/m);
  });

  it('shrinks a page larger than viewers allow, its text with it', async () => {
    const layout = page('Scroll', 28_800, 2_000, [
      region(rect(0, 0, 28_800, 2_000), [line('A long scroll', rect(1_000, 1_000, 9_000, 1_800))]),
    ]);
    const big = path.join(dir, 'big.pdf');
    fs.writeFileSync(big, await writePdf([{ layout, image: null }]));
    expect(poppler('pdfinfo', [big])).toMatch(/^Page size: +14400 x 1000 pts$/m);
    const [found] = bboxLines(big)[0]!;
    expect(found!.text).toBe('A long scroll');
    expect([found!.xMin, found!.yMin, found!.xMax, found!.yMax].map(Math.round)).toEqual([
      500, 500, 4_500, 900,
    ]);
  });
});

describe('the PDF export without pages', () => {
  it('is refused: a PDF needs a page', async () => {
    await expect(writePdf([])).rejects.toThrow('A PDF export needs at least one page.');
  });
});
