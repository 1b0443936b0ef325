import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createUser } from '../services/users';
import { createCorpus } from '../services/corpora';
import { seedDemoContent } from './content';
import { seedDemoWorker } from './worker';
import { flushSearchIndex } from '../services/search/pending';

export interface DemoLogin {
  email: string;
  password: string;
  corpusName: string;
}

export const DEMO_ADMIN_EMAIL = 'admin@folia.local';
export const DEMO_CORPUS_NAME = 'Demo project';

/**
 * On an empty database only: a site admin with a random password (returned so it is printed
 * once, never stored in clear) and a demo project they administer.
 */
export async function seedDemo(app: FastifyInstance): Promise<DemoLogin | null> {
  const anyUser = await app.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return null;
  const password = randomBytes(12).toString('base64url');
  const admin = await createUser(app.db, {
    email: DEMO_ADMIN_EMAIL,
    password,
    displayName: 'Demo admin',
    isAdmin: true,
    verified: true,
  });
  const corpus = await createCorpus(app.db, admin, {
    name: DEMO_CORPUS_NAME,
    description:
      'A project to try Folia: browse its folders and pages, draw zones, transcribe and classify.',
    public: false,
  });
  // Searchable out of the box: the search page answers on the demo pages at once.
  await app.db.updateTable('corpora').set({ indexable: 1 }).where('id', '=', corpus.id).execute();
  try {
    await seedDemoContent({ db: app.db, dataDir: app.config.dataDir }, corpus.id, admin.id);
  } catch (error) {
    // An empty demo project still lets the admin in; the server must start regardless.
    app.log.error({ err: error }, 'The demo pages could not be created');
  }
  await flushSearchIndex({ db: app.db, dialect: app.dialect }).catch((error: unknown) =>
    app.log.error({ err: error }, 'The demo pages could not be indexed for search'),
  );
  await seedDemoWorker(app.db, admin).catch((error: unknown) =>
    app.log.error({ err: error }, 'The demo worker could not be created'),
  );
  return { email: DEMO_ADMIN_EMAIL, password, corpusName: DEMO_CORPUS_NAME };
}
