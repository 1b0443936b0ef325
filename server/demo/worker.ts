/**
 * A demo worker, so a fresh server has one to browse: a recognizer with an available version
 * whose settings use most field types (numbers, choices, text, a list, a group with a flag and
 * a dictionary, a model) and one saved configuration.
 */
import type { Db } from '../db';
import type { User } from '../db/schema';
import { createWorker } from '../services/workers/workers';
import { createVersion } from '../services/workers/versions';
import { createConfiguration } from '../services/workers/configurations';

export const DEMO_WORKER_SLUG = 'demo-recognizer';

export const DEMO_USER_CONFIGURATION = {
  batch_size: { title: 'Batch size', type: 'int', default: 8, help_text: 'Pages read at once.' },
  confidence_threshold: {
    title: 'Minimum confidence',
    type: 'float',
    default: 0.5,
    required: false,
  },
  language: { title: 'Language', type: 'enum', choices: ['fra', 'eng', 'lat'], default: 'fra' },
  prompt: { title: 'Notes for the transcriber', type: 'text', multiline: true, required: false },
  line_types: {
    title: 'Line types',
    type: 'list',
    subtype: 'string',
    default: ['text_line'],
    required: false,
  },
  model: { title: 'Recognition model', type: 'model', required: false },
  preprocessing: {
    title: 'Preprocessing',
    type: 'group',
    children: {
      deskew: { title: 'Deskew pages', type: 'bool', default: true },
      binarize: { title: 'Binarize', type: 'bool', default: false },
      replacements: { title: 'Character replacements', type: 'dict', required: false },
    },
  },
};

export async function seedDemoWorker(db: Db, admin: User): Promise<void> {
  const { worker, created } = await createWorker(db, {
    name: 'Demo recognizer',
    slug: DEMO_WORKER_SLUG,
    type: 'recognizer',
    description: 'Reads the text of page lines. A demo: it has settings to configure, no code.',
    repository_url: null,
  });
  if (!created) return;
  await createVersion(db, worker, {
    configuration: { user_configuration: DEMO_USER_CONFIGURATION },
    state: 'available',
    tag: 'v1.0.0',
  });
  await createConfiguration(db, admin, worker, {
    name: 'Latin, large batches',
    configuration: { batch_size: 32, language: 'lat', preprocessing: { binarize: true } },
  });
}
