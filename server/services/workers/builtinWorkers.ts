/**
 * The workers shipped in `workers/` are published at every server start, so a process can use
 * them without anyone publishing them: "Tesseract OCR", "No-op" and one document export worker
 * per format (its version provides the `<format>_export` feature an export process runs), each
 * with an `available` version whose command an agent runs (`{folia}` is the agent's
 * installation root). Idempotent: a new version is made only when the configuration written
 * here differs from the newest version's, so an upgrade that changes the schema or the command
 * gives a new version and worker runs made before keep theirs; the feature moves to the new one.
 */
import type { Db } from '../../db';
import type { FEATURES, USAGES } from './versions';
import { createVersion, parseConfiguration } from './versions';
import { createWorker, type NewWorker } from './workers';

interface Builtin extends NewWorker {
  configuration: Record<string, unknown>;
  modelUsage: (typeof USAGES)[number];
  feature?: (typeof FEATURES)[number];
}

export const TESSERACT_USER_CONFIGURATION = {
  languages: {
    title: 'Languages',
    type: 'string',
    default: 'frk',
    required: false,
    help_text: 'Tesseract languages joined by "+", like deu+frk (ignored when a model is set).',
  },
  psm: {
    title: 'Page segmentation mode',
    type: 'enum',
    choices: [1, 3, 4, 6, 11],
    default: 3,
    required: false,
    help_text:
      '1: automatic with orientation, 3: automatic, 4: one column, 6: one block, 11: sparse text.',
  },
  min_confidence: {
    title: 'Minimum confidence',
    type: 'float',
    default: 0,
    required: false,
    help_text: 'From 0 to 100: lines whose mean word confidence is lower are dropped.',
  },
  create_lines: {
    title: 'Create lines',
    type: 'bool',
    default: true,
    required: false,
    help_text: 'Off: transcribe the existing lines of each element instead.',
  },
  line_type: {
    title: 'Line type',
    type: 'element_type',
    default: 'text_line',
    required: false,
  },
  create_regions: {
    title: 'Create text regions',
    type: 'bool',
    default: false,
    required: false,
    help_text: 'Create a paragraph for each text block found, with its lines inside it.',
  },
};

/** The document export formats, each run by its own built-in worker (workers/export/). */
export const EXPORT_FORMATS = ['pdf', 'pagexml', 'alto', 'docx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The columns of a CSV export, in order (src/lib/exports/csv.ts CSV_FIELDS). */
export const CSV_EXPORT_FIELDS = [
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
];

/** Only what workers/export/settings.ts reads; nothing required, so the feature runs alone. */
export const EXPORT_USER_CONFIGURATIONS: Record<ExportFormat, Record<string, unknown>> = {
  pdf: {
    page_images: {
      title: 'Page images',
      type: 'bool',
      default: true,
      required: false,
      help_text: 'Off: pages carry their text only, at the size of their image, without it.',
    },
  },
  pagexml: {},
  alto: {},
  docx: {},
  csv: {
    fields: {
      title: 'Columns',
      type: 'list',
      subtype: 'string',
      default: CSV_EXPORT_FIELDS,
      required: false,
      help_text: `Among ${CSV_EXPORT_FIELDS.join(', ')}.`,
    },
  },
};

const EXPORT_NAMES: Record<ExportFormat, string> = {
  pdf: 'PDF',
  pagexml: 'PAGE XML',
  alto: 'ALTO',
  docx: 'DOCX',
  csv: 'CSV',
};

const exportWorker = (format: ExportFormat): Builtin => ({
  name: `${EXPORT_NAMES[format]} export`,
  slug: `${format}-export`,
  type: 'export',
  description: `Writes the chosen pages of a project's SQLite export to ${EXPORT_NAMES[format]}.`,
  configuration: {
    command: ['tsx', '{folia}/workers/export/main.ts', '--format', format],
    user_configuration: EXPORT_USER_CONFIGURATIONS[format],
  },
  modelUsage: 'disabled',
  feature: `${format}_export`,
});

export const BUILTIN_WORKERS: Builtin[] = [
  {
    name: 'Tesseract OCR',
    slug: 'tesseract',
    type: 'recognizer',
    description:
      'Finds text lines on each element and reads them with Tesseract, or reads existing lines.',
    configuration: {
      command: ['tsx', '{folia}/workers/tesseract/main.ts'],
      user_configuration: TESSERACT_USER_CONFIGURATION,
    },
    modelUsage: 'supported',
  },
  {
    name: 'No-op',
    slug: 'noop',
    // It reports each element processed and nothing more: a classifier that finds no class.
    type: 'classifier',
    description: 'Marks each element processed and does nothing else.',
    configuration: { command: ['tsx', '{folia}/workers/noop/main.ts'], user_configuration: {} },
    modelUsage: 'disabled',
  },
  ...EXPORT_FORMATS.map(exportWorker),
];

/** JSON with object keys sorted, so two equal configurations compare equal as text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

async function publish(db: Db, builtin: Builtin): Promise<void> {
  const { worker } = await createWorker(db, builtin);
  const newest = await db
    .selectFrom('worker_versions')
    .select(['configuration', 'model_usage', 'state', 'feature'])
    .where('worker_id', '=', worker.id)
    .orderBy('created', 'desc')
    .orderBy('version', 'desc')
    .executeTakeFirst();
  if (
    newest &&
    newest.state === 'available' &&
    newest.model_usage === builtin.modelUsage &&
    (newest.feature ?? undefined) === builtin.feature &&
    canonical(parseConfiguration(newest.configuration)) === canonical(builtin.configuration)
  ) {
    return;
  }
  await createVersion(db, worker, {
    configuration: builtin.configuration,
    state: 'available',
    model_usage: builtin.modelUsage,
    feature: await freeFeature(db, worker.id, builtin.feature),
  });
}

/**
 * One version per feature: the worker's older versions give it up to the new one. A version of
 * another worker that a site admin published for it keeps it, and the built-in goes without.
 */
async function freeFeature(
  db: Db,
  workerId: string,
  feature: Builtin['feature'],
): Promise<Builtin['feature'] | null> {
  if (!feature) return null;
  await db
    .updateTable('worker_versions')
    .set({ feature: null })
    .where('worker_id', '=', workerId)
    .where('feature', '=', feature)
    .execute();
  const held = await db
    .selectFrom('worker_versions')
    .select('id')
    .where('feature', '=', feature)
    .executeTakeFirst();
  return held ? null : feature;
}

export async function publishBuiltinWorkers(db: Db): Promise<void> {
  for (const builtin of BUILTIN_WORKERS) await publish(db, builtin);
}
