/**
 * What the database benchmarks start from: a throwaway app on SQLite or PostgreSQL, the user they
 * call the API as, and projects that user administers. Rows go in through the app's services, so
 * a benchmark reads what the app itself would have written.
 */
import type { FastifyInstance } from 'fastify';
import { insertCorpus } from '../server/services/corpora';
import { createUser } from '../server/services/users';
import { makeThrowawayApp, postgresAnswers, type DialectName } from '../tests/server/throwawayApp';

export { postgresAnswers, type DialectName };

/** Runs `body` on a fresh app, removed afterwards whatever happens. */
export async function withBenchApp<T>(
  dialect: DialectName,
  body: (app: FastifyInstance) => Promise<T>,
): Promise<T> {
  const { app, close } = await makeThrowawayApp(dialect, { label: 'bench' });
  try {
    return await body(app);
  } finally {
    await close();
  }
}

export interface BenchUser {
  id: string;
  /** Sent with every API call: a token, so no session or CSRF step is timed. */
  headers: { authorization: string };
}

export async function seedUser(app: FastifyInstance): Promise<BenchUser> {
  const user = await createUser(app.db, {
    email: 'bench@example.com',
    password: 'correct horse battery staple',
    displayName: 'Bench',
    verified: true,
  });
  return { id: user.id, headers: { authorization: `Token ${user.auth_token}` } };
}

/** A private project with the default types, administered by the bench user. */
export async function seedProject(
  app: FastifyInstance,
  user: BenchUser,
  name: string,
): Promise<string> {
  const corpus = await insertCorpus(app.db, { name, description: '', public: false }, user.id);
  return corpus.id;
}
