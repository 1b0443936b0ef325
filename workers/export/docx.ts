/**
 * The DOCX export: the transcriptions to read and edit in a word processor. Each page is a
 * Heading 1 with its name, starting a new printed page after the first, then one paragraph per
 * region in reading order, its lines' texts one per line (line breaks within the paragraph).
 * A region whose lines have no text gives its own text instead; one with neither is left out.
 * Texts are kept as they are (combining marks, Private-Use-Area characters), less the control
 * characters XML cannot hold.
 */
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { LayoutRegion, PageLayout } from '../../src/lib/exports/layout';

export interface DocxOptions {
  title?: string;
}

// XML 1.0 refuses C0 controls other than tab, LF and CR, and U+FFFE / U+FFFF; Word then refuses
// the whole file.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const hasText = (text: string | null): text is string => text !== null && text.trim() !== '';

/** The region's text as lines: its lines' texts, else its own text split at its line ends. */
export function regionLines(region: LayoutRegion): string[] {
  const lines = region.lines.map((line) => line.text).filter(hasText);
  if (lines.length > 0) return lines;
  return hasText(region.text) ? region.text.split(/\r\n|\r|\n/) : [];
}

function regionParagraph(lines: string[]): Paragraph {
  return new Paragraph({
    children: lines.map(
      (line, index) => new TextRun({ text: line.replace(NOT_XML, ''), break: index > 0 ? 1 : 0 }),
    ),
  });
}

export async function writeDocx(
  pages: PageLayout[],
  options: DocxOptions = {},
): Promise<Uint8Array> {
  const children = pages.flatMap((layout, index) => [
    new Paragraph({
      heading: HeadingLevel.HEADING_1,
      pageBreakBefore: index > 0,
      children: [new TextRun(layout.pageName.replace(NOT_XML, ''))],
    }),
    ...layout.regions
      .map(regionLines)
      .filter((lines) => lines.length > 0)
      .map(regionParagraph),
  ]);
  const document = new Document({
    creator: 'Folia',
    lastModifiedBy: 'Folia',
    title: options.title ?? '',
    sections: [{ children }],
  });
  return new Uint8Array(await Packer.toArrayBuffer(document));
}
