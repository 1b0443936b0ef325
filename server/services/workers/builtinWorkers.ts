/**
 * The workers shipped in `workers/` are published at every server start, so a process can use
 * them without anyone publishing them: "Tesseract OCR" and "No-op", each with an `available`
 * version whose command an agent runs (`{folia}` is the agent's installation root). Idempotent:
 * a new version is made only when the configuration written here differs from the newest
 * version's, so an upgrade that changes the schema or the command gives a new version and
 * worker runs made before keep theirs.
 */
import type { Db } from '../../db';
import type { USAGES } from './versions';
import { createVersion, parseConfiguration } from './versions';
import { createWorker, type NewWorker } from './workers';

interface Builtin extends NewWorker {
  configuration: Record<string, unknown>;
  modelUsage: (typeof USAGES)[number];
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
    .select(['configuration', 'model_usage', 'state'])
    .where('worker_id', '=', worker.id)
    .orderBy('created', 'desc')
    .orderBy('version', 'desc')
    .executeTakeFirst();
  if (
    newest &&
    newest.state === 'available' &&
    newest.model_usage === builtin.modelUsage &&
    canonical(parseConfiguration(newest.configuration)) === canonical(builtin.configuration)
  ) {
    return;
  }
  await createVersion(db, worker, {
    configuration: builtin.configuration,
    state: 'available',
    model_usage: builtin.modelUsage,
  });
}

export async function publishBuiltinWorkers(db: Db): Promise<void> {
  for (const builtin of BUILTIN_WORKERS) await publish(db, builtin);
}
