/**
 * Corpora ("projects" in the UI). Anyone may list what they can read; a verified user creates
 * a corpus with the default types and becomes its admin; admins edit and delete it.
 */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../clock';
import type { Db } from '../db';
import type { Corpus, CorpusTable, User } from '../db/schema';
import { validationError } from '../errors';
import {
  LEVEL,
  bestLevel,
  checkRight,
  groupLevel,
  readableCorpusIds,
  requireCanCreateCorpus,
  rightsFor,
  type CorpusAccess,
  type CorpusIds,
  type Right,
} from '../permissions';
import {
  corpusTypeJson,
  findTypeBySlug,
  insertDefaultTypes,
  typesByCorpus,
  type CorpusTypeJson,
} from './elementTypes';
import { insertMembership, memberCounts } from './memberships';

export interface CorpusJson {
  id: string;
  name: string;
  description: string;
  public: boolean;
  indexable: boolean;
  created: string;
  types: CorpusTypeJson[];
  rights: Right[];
  top_level_type: string | null;
  authorized_users: number;
}

/** Corpora with the caller's rights, in the given order; `ids` selects their types and counts. */
async function corpusJsons(
  db: Db,
  entries: { corpus: Corpus; rights: Right[] }[],
  ids: CorpusIds,
): Promise<CorpusJson[]> {
  if (entries.length === 0) return [];
  const [types, counts] = await Promise.all([typesByCorpus(db, ids), memberCounts(db, ids)]);
  return entries.map(({ corpus, rights }) => ({
    id: corpus.id,
    name: corpus.name,
    description: corpus.description,
    public: corpus.public === 1,
    indexable: corpus.indexable === 1,
    created: corpus.created,
    types: (types.get(corpus.id) ?? []).map(corpusTypeJson),
    rights,
    top_level_type: corpus.top_level_type,
    authorized_users: counts.get(corpus.id) ?? 0,
  }));
}

export async function corpusJson(db: Db, corpus: Corpus, rights: Right[]): Promise<CorpusJson> {
  const [json] = await corpusJsons(db, [{ corpus, rights }], [corpus.id]);
  return json!;
}

export async function listCorpora(db: Db, user: User | null): Promise<CorpusJson[]> {
  const rows = await db
    .selectFrom('corpora')
    .selectAll('corpora')
    .select((eb) =>
      eb
        .selectFrom('memberships')
        .select('memberships.level')
        .whereRef('memberships.corpus_id', '=', 'corpora.id')
        // Anonymous callers have no memberships; an empty id matches none.
        .where('memberships.user_id', '=', user?.id ?? '')
        .as('level'),
    )
    .select((eb) => groupLevel(eb, eb.ref('corpora.id'), user?.id ?? '').as('group_level'))
    .where('corpora.id', 'in', readableCorpusIds(db, user))
    .orderBy('corpora.name')
    .orderBy('corpora.id')
    .execute();
  const entries = rows.map(({ level, group_level: throughGroups, ...corpus }) => ({
    corpus,
    rights: rightsFor(user, bestLevel(level ?? null, throughGroups), corpus),
  }));
  // The same readable-ids subquery selects the types and counts, whatever the corpus count.
  return corpusJsons(db, entries, readableCorpusIds(db, user));
}

export interface NewCorpusInput {
  name: string;
  description: string;
  public: boolean;
}

export async function createCorpus(db: Db, user: User, input: NewCorpusInput): Promise<CorpusJson> {
  requireCanCreateCorpus(user);
  const corpus = await insertCorpus(db, input, user.id);
  return corpusJson(db, corpus, rightsFor(user, LEVEL.admin, corpus));
}

/**
 * A project with the default types, administered by `ownerId` (none: only site admins see
 * it, as for a project made from the command line on a server without accounts yet).
 */
export async function insertCorpus(
  db: Db,
  input: NewCorpusInput,
  ownerId: string | null,
): Promise<Corpus> {
  const now = nowIso();
  const corpus: Corpus = {
    id: randomUUID(),
    name: input.name,
    description: input.description,
    public: input.public ? 1 : 0,
    indexable: 0,
    top_level_type: null,
    created: now,
    updated: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('corpora').values(corpus).execute();
    await insertDefaultTypes(trx, corpus.id);
    if (ownerId)
      await insertMembership(trx, { corpusId: corpus.id, userId: ownerId, level: LEVEL.admin });
  });
  return corpus;
}

export interface CorpusChanges {
  name?: string;
  description?: string;
  public?: boolean;
  indexable?: boolean;
  top_level_type?: string | null;
}

/** `access` comes from requireCorpusRight(…, 'admin'), asked before the body is read. */
export async function updateCorpus(
  db: Db,
  access: CorpusAccess,
  changes: CorpusChanges,
): Promise<CorpusJson> {
  const { corpus, rights } = checkRight(access, 'admin');
  const values: Partial<CorpusTable> = {};
  if (changes.name !== undefined) values.name = changes.name;
  if (changes.description !== undefined) values.description = changes.description;
  if (changes.public !== undefined) values.public = changes.public ? 1 : 0;
  if (changes.indexable !== undefined) values.indexable = changes.indexable ? 1 : 0;
  if (changes.top_level_type !== undefined) {
    const slug = changes.top_level_type;
    if (slug !== null && !(await findTypeBySlug(db, corpus.id, slug))) {
      throw validationError(
        'top_level_type',
        `Object with slug=${slug} does not exist.`,
        'does_not_exist',
      );
    }
    values.top_level_type = slug;
  }
  if (Object.keys(values).length === 0) return corpusJson(db, corpus, rights);
  values.updated = nowIso();
  await db.updateTable('corpora').set(values).where('id', '=', corpus.id).execute();
  return corpusJson(db, { ...corpus, ...values }, rights);
}

/** Types and memberships go with the corpus (ON DELETE CASCADE). */
export async function deleteCorpus(db: Db, access: CorpusAccess): Promise<void> {
  const { corpus } = checkRight(access, 'admin');
  await db.deleteFrom('corpora').where('id', '=', corpus.id).execute();
}
