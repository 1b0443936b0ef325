import { describe, expect, it } from 'vitest';
import { CSV_FIELDS, csvHeader, csvRow } from '../../src/lib/exports/csv';

/** A strict RFC 4180 reader, so the tests check what a spreadsheet reads back. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const endField = () => {
    row.push(field);
    field = '';
  };
  while (i < text.length) {
    if (text[i] === '"') {
      const close = /"(?!")/g;
      close.lastIndex = i + 1;
      const end = close.exec(text.replace(/""/g, '\0\0'))?.index;
      if (end === undefined) throw new Error('unterminated quote');
      field += text.slice(i + 1, end).replace(/""/g, '"');
      i = end + 1;
    }
    if (text[i] === ',') {
      endField();
      i++;
    } else if (text.startsWith('\r\n', i)) {
      endField();
      rows.push(row);
      row = [];
      i += 2;
    } else if (i < text.length) {
      if ('"\r\n'.includes(text[i]!)) throw new Error(`bare ${JSON.stringify(text[i])}`);
      field += text[i++];
    }
  }
  if (field !== '' || row.length) throw new Error('last line without CRLF');
  return rows;
}

describe('the CSV export', () => {
  it('starts with the chosen fields as a header line ending in CRLF', () => {
    expect(csvHeader(['id', 'name', 'text'])).toBe('id,name,text\r\n');
    expect(readCsv(csvHeader(CSV_FIELDS))).toEqual([[...CSV_FIELDS]]);
  });

  it('writes the fields in the order asked, missing and null values empty', () => {
    const line = csvRow({ name: 'Line 1', id: 'a1', text: null }, ['id', 'type', 'name', 'text']);
    expect(line).toBe('a1,,Line 1,\r\n');
  });

  it('quotes fields holding commas, quotes, CR or LF and reads back the same text', () => {
    const texts = ['a, b', 'say "hi"', 'two\nlines', 'cr\r\nlf', 'plain', ''];
    const csv = texts.map((text) => csvRow({ text, id: 'x' }, ['id', 'text'])).join('');
    expect(csv).toContain('"say ""hi"""');
    expect(csv).toContain(',plain\r\n');
    expect(readCsv(csv).map((row) => row[1])).toEqual(texts);
  });

  it('keeps a spreadsheet from running text as a formula', () => {
    const texts = ['=SUM(A1:A2)', '+33 1 23', '-dash', '@cmd', '=1,"2"'];
    const csv = texts.map((text) => csvRow({ text }, ['text'])).join('');
    expect(readCsv(csv).map((row) => row[0])).toEqual(texts.map((text) => `'${text}`));
    // Only a leading sign counts; numbers stay numbers.
    expect(csvRow({ text: 'a=b', text_confidence: -0.5 }, ['text', 'text_confidence'])).toBe(
      'a=b,-0.5\r\n',
    );
  });

  it('writes combining marks and Private-Use-Area characters as they are', () => {
    const text = 'e\u0301\u0323 \uE000\uF8FF \u{F0000}';
    expect(readCsv(csvRow({ text }, ['text']))[0]![0]).toBe(text);
    const codePoints = (s: string) => [...s].map((char) => char.codePointAt(0));
    expect(codePoints(csvRow({ text }, ['text']))).toEqual(codePoints(`${text}\r\n`));
  });

  it('writes polygons as JSON text and numbers as they are', () => {
    const polygon = JSON.stringify([
      [0, 0],
      [10, 0],
      [10, 5],
    ]);
    const [row] = readCsv(
      csvRow({ polygon, text_confidence: 0.75, classifications: 'Cat; Dog' }, [
        'polygon',
        'text_confidence',
        'classifications',
      ]),
    );
    expect(row).toEqual(['[[0,0],[10,0],[10,5]]', '0.75', 'Cat; Dog']);
  });
});
