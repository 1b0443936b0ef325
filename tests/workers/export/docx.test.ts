/**
 * The DOCX export opened as a word processor opens it: the zip's word/document.xml read
 * paragraph by paragraph (style, page break, runs and line breaks), docProps/core.xml for the
 * title.
 */
import { XMLParser } from 'fast-xml-parser';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { writeDocx } from '../../../workers/export/docx';
import { line, page, rect, region } from './layouts';

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
});

const childrenOf = (node: XmlNode, tag: string): XmlNode[] => (node[tag] as XmlNode[]) ?? [];
const find = (nodes: XmlNode[], tag: string) => nodes.filter((node) => tag in node);

interface ReadParagraph {
  style: string | null;
  pageBreakBefore: boolean;
  /** The paragraph's text, a line per line break. */
  lines: string[];
}

/** The body's paragraphs as a reader sees them. */
function paragraphsOf(documentXml: string): ReadParagraph[] {
  const [document] = find(parser.parse(documentXml) as XmlNode[], 'w:document');
  const [body] = find(childrenOf(document!, 'w:document'), 'w:body');
  return find(childrenOf(body!, 'w:body'), 'w:p').map((paragraph) => {
    const parts = childrenOf(paragraph, 'w:p');
    const properties = find(parts, 'w:pPr').flatMap((node) => childrenOf(node, 'w:pPr'));
    const lines = [''];
    for (const run of find(parts, 'w:r')) {
      for (const part of childrenOf(run, 'w:r')) {
        if ('w:br' in part) lines.push('');
        if ('w:t' in part) {
          const text = childrenOf(part, 'w:t')
            .map((node) => String(node['#text'] ?? ''))
            .join('');
          lines[lines.length - 1] += text;
        }
      }
    }
    return {
      style: find(properties, 'w:pStyle')[0]?.[':@']?.['w:val'] ?? null,
      pageBreakBefore: find(properties, 'w:pageBreakBefore').length > 0,
      lines,
    };
  });
}

async function open(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  return {
    paragraphs: paragraphsOf(strFromU8(files['word/document.xml']!)),
    core: strFromU8(files['docProps/core.xml']!),
  };
}

const PAGES = [
  page('Folio 1r', 600, 400, [
    region(rect(10, 10, 590, 200), [
      line('Été de ſaint Martin', rect(20, 20, 500, 60)),
      line(null, rect(20, 70, 300, 80)),
      line('Cafe\u0301  \uE5DC <und> & Straße ', rect(20, 80, 400, 110)),
    ]),
    // Lines without text: the region's own text, a line per line of it.
    region(rect(20, 300, 300, 380), [line(null, rect(20, 300, 300, 340))], 'Notes\nmarginales'),
    // Nothing to read: no paragraph.
    region(rect(20, 390, 300, 399), [], null),
  ]),
  page('Folio 1v', 500, 700, [
    region(rect(20, 590, 480, 660), [line('ꝛc. la fin \uE8BF \u{F0001}', rect(30, 600, 450, 650))]),
    region(rect(20, 40, 480, 140), [], 'Im Anfang'),
  ]),
  page('Folio 2r (blank)', 300, 200, []),
];

describe('the DOCX export', () => {
  it('has a heading per page, then a paragraph per region in reading order, text kept as is', async () => {
    const { paragraphs } = await open(await writeDocx(PAGES, { title: 'Registre – 1789' }));
    expect(paragraphs).toEqual([
      { style: 'Heading1', pageBreakBefore: false, lines: ['Folio 1r'] },
      {
        style: null,
        pageBreakBefore: false,
        lines: ['Été de ſaint Martin', 'Cafe\u0301  \uE5DC <und> & Straße '],
      },
      { style: null, pageBreakBefore: false, lines: ['Notes', 'marginales'] },
      { style: 'Heading1', pageBreakBefore: true, lines: ['Folio 1v'] },
      { style: null, pageBreakBefore: false, lines: ['ꝛc. la fin \uE8BF \u{F0001}'] },
      { style: null, pageBreakBefore: false, lines: ['Im Anfang'] },
      { style: 'Heading1', pageBreakBefore: true, lines: ['Folio 2r (blank)'] },
    ]);
    // Byte for byte: the combining acute stays a separate character, not a composed é.
    const [, first] = paragraphs;
    expect(Buffer.from(first!.lines[1]!, 'utf8').subarray(0, 6)).toEqual(
      Buffer.from([0x43, 0x61, 0x66, 0x65, 0xcc, 0x81]),
    );
  });

  it('carries the title in its properties', async () => {
    const { core } = await open(await writeDocx(PAGES, { title: 'Registre – 1789 & <co>' }));
    expect(core).toContain('<dc:title>Registre – 1789 &amp; &lt;co&gt;</dc:title>');
    expect(core).toContain('<dc:creator>Folia</dc:creator>');
  });

  it('drops the control characters XML cannot hold, and only them', async () => {
    const layout = page('Control', 100, 100, [
      region(rect(0, 0, 100, 100), [line('a\u0001b\tc', rect(0, 0, 100, 10))]),
    ]);
    const { paragraphs } = await open(await writeDocx([layout]));
    expect(paragraphs[1]!.lines).toEqual(['ab\tc']);
  });
});
