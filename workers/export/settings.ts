/**
 * The export worker's settings, from its worker run's merged configuration (the version's
 * schema defaults under the run's configuration): `export_id`, which the export process writes,
 * and the options of the format's user_configuration (server/services/workers/builtinWorkers.ts).
 * A hand-edited configuration that gets one wrong fails the task with a clear line.
 */
import { CSV_FIELDS, type CsvField } from '../../src/lib/exports/csv';

export const FORMATS = ['pdf', 'pagexml', 'alto', 'docx', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export interface Settings {
  exportId: string;
  /** PDF: draw each page's image under its text. */
  pageImages: boolean;
  /** CSV: the columns, in this order. */
  fields: CsvField[];
}

export class SettingsError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readFormat(argv: readonly string[]): Format {
  const at = argv.indexOf('--format');
  const value = at >= 0 ? argv[at + 1] : undefined;
  if (!value || !(FORMATS as readonly string[]).includes(value)) {
    throw new SettingsError(`Give the format to write: --format ${FORMATS.join('|')}`);
  }
  return value as Format;
}

export function readSettings(configuration: Record<string, unknown>): Settings {
  const exportId = configuration.export_id;
  if (typeof exportId !== 'string' || !UUID.test(exportId)) {
    throw new SettingsError(
      'The configuration has no export_id: start the export from the app or POST /process/export/.',
    );
  }
  const pageImages = configuration.page_images ?? true;
  if (typeof pageImages !== 'boolean') throw new SettingsError('page_images must be true or false');
  const fields = configuration.fields ?? [...CSV_FIELDS];
  if (!Array.isArray(fields) || fields.length === 0) {
    throw new SettingsError(`fields must list columns among ${CSV_FIELDS.join(', ')}`);
  }
  const unknown = fields.filter((field) => !(CSV_FIELDS as readonly unknown[]).includes(field));
  if (unknown.length > 0) {
    throw new SettingsError(
      `Unknown CSV column(s) ${unknown.map((field) => JSON.stringify(field)).join(', ')}: ` +
        `choose among ${CSV_FIELDS.join(', ')}`,
    );
  }
  return { exportId: exportId.toLowerCase(), pageImages, fields: fields as CsvField[] };
}
