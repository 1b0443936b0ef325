/**
 * Tesseract's `tsv` output read into what the worker stores: text lines with their box, their
 * words' text joined by spaces and their words' mean confidence, grouped by paragraph.
 *
 * Columns: level page_num block_num par_num line_num word_num left top width height conf text.
 * Levels: 1 page, 2 block, 3 paragraph, 4 line, 5 word; only words carry a confidence (0–100,
 * -1 elsewhere). With a list of images as input, `page_num` numbers them from 1.
 */

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface OcrLine {
  /** 1-based image of the input list. */
  page: number;
  /** Block and paragraph numbers joined, unique within the page: "2.1". */
  paragraph: string;
  box: Box;
  text: string;
  /** Mean confidence of the line's words, 0–100. */
  confidence: number;
}

export interface OcrParagraph {
  page: number;
  key: string;
  box: Box;
  lines: OcrLine[];
}

interface Row {
  level: number;
  page: number;
  block: number;
  paragraph: number;
  line: number;
  box: Box;
  conf: number;
  text: string;
}

const HEADER = 'level';

function readRow(fields: string[]): Row | null {
  if (fields.length < 11) return null;
  const numbers = fields.slice(0, 11).map(Number);
  if (numbers.some((value) => !Number.isFinite(value))) return null;
  const [level, page, block, paragraph, line, , left, top, width, height, conf] = numbers as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return {
    level,
    page,
    block,
    paragraph,
    line,
    box: { left, top, width, height },
    conf,
    // A word may hold a tab only as its own separator: whatever follows is still its text.
    text: fields.slice(11).join('\t'),
  };
}

/** The lines that hold at least one word with text, in Tesseract's reading order. */
export function parseTsv(tsv: string): OcrLine[] {
  const lines = new Map<string, { line: OcrLine; words: string[]; confidences: number[] }>();
  for (const raw of tsv.split(/\r?\n/)) {
    if (raw === '' || raw.startsWith(HEADER)) continue;
    const row = readRow(raw.split('\t'));
    if (!row) continue;
    const key = `${row.page}/${row.block}.${row.paragraph}.${row.line}`;
    if (row.level === 4) {
      lines.set(key, {
        line: {
          page: row.page,
          paragraph: `${row.block}.${row.paragraph}`,
          box: row.box,
          text: '',
          confidence: 0,
        },
        words: [],
        confidences: [],
      });
    } else if (row.level === 5) {
      const entry = lines.get(key);
      const word = row.text.trim();
      if (!entry || word === '') continue;
      entry.words.push(word);
      if (row.conf >= 0) entry.confidences.push(row.conf);
    }
  }
  const result: OcrLine[] = [];
  for (const { line, words, confidences } of lines.values()) {
    if (words.length === 0) continue;
    const sum = confidences.reduce((total, value) => total + value, 0);
    result.push({
      ...line,
      text: words.join(' '),
      confidence: confidences.length ? sum / confidences.length : 0,
    });
  }
  return result;
}

function union(boxes: Box[]): Box {
  const left = Math.min(...boxes.map((box) => box.left));
  const top = Math.min(...boxes.map((box) => box.top));
  const right = Math.max(...boxes.map((box) => box.left + box.width));
  const bottom = Math.max(...boxes.map((box) => box.top + box.height));
  return { left, top, width: right - left, height: bottom - top };
}

/** Lines grouped by paragraph, each paragraph's box the union of its lines', in order. */
export function paragraphsOf(lines: OcrLine[]): OcrParagraph[] {
  const groups = new Map<string, OcrLine[]>();
  for (const line of lines) {
    const key = `${line.page}/${line.paragraph}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  return [...groups.values()].map((group) => ({
    page: group[0]!.page,
    key: group[0]!.paragraph,
    box: union(group.map((line) => line.box)),
    lines: group,
  }));
}
