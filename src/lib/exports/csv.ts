/**
 * The CSV export, one row per element: written by the export worker and by the browser for a
 * pack taken offline, so both give the same file for the same elements.
 */

/** Every field a CSV export may hold, in the order the columns come when all are chosen. */
export const CSV_FIELDS = [
  'id',
  'name',
  'type',
  'parent_id',
  'parent_name',
  'page_id',
  'page_name',
  'image_url',
  'polygon',
  'text',
  'text_confidence',
  'text_worker_run_id',
  'classifications',
  'created',
  'updated',
] as const;
export type CsvField = (typeof CSV_FIELDS)[number];
/** An element's values (polygon as JSON text, classifications as class names joined by '; '). */
export type CsvElement = Partial<Record<CsvField, string | number | null>>;

const CRLF = '\r\n';

/**
 * One field. Text starting with =, +, - or @ gets a ' in front, since spreadsheets run such a
 * cell as a formula (a transcription reading "=HYPERLINK(…)" must stay text); numbers are written
 * as they are. A field holding a comma, a quote, CR or LF is quoted, its quotes doubled.
 */
function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line (RFC 4180), ending in CRLF like every row. */
export function csvHeader(fields: readonly CsvField[]): string {
  return fields.map(csvField).join(',') + CRLF;
}

/** One element's line, its fields in the header's order (a missing value is empty), ending in CRLF. */
export function csvRow(element: CsvElement, fields: readonly CsvField[]): string {
  return fields.map((field) => csvField(element[field])).join(',') + CRLF;
}
