/**
 * Project exports (spec 001 §3 Export, api part 2 §1.1): a project's SQLite exports, the rules
 * of a new one, and where its file lives. startExport checks the request and, in one transaction
 * holding the project, records the export and queues the `export.sqlite` job (exportJob.ts) that
 * builds the file; of two starts at once, the second sees the first.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Db, Dialect } from '../../db';
import type { CorpusExport, ExportState, User } from '../../db/schema';
import { nowIso } from '../../clock';
import { badRequest, notFound, permissionDenied, validationError } from '../../errors';
import { enqueueJob } from '../../jobs/queue';
import { findCorpusAccess } from '../../permissions';

export type ExportRow = CorpusExport;

export const EXPORT_JOB = 'export.sqlite';

/** The one source Folia exports from: its own database. */
export const EXPORT_SOURCES = ['default'] as const;
export type ExportSource = (typeof EXPORT_SOURCES)[number];

/** A done export may not be followed by another of the same project for this long. */
export const EXPORT_COOLDOWN_MS = 6 * 60 * 60 * 1000;
/** Done exports and their files are deleted this long after they were made. */
export const EXPORT_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

export const EXPORT_MESSAGES = {
  contributor: 'Contributor access is required to start a project export.',
  running: 'An export is already running for this project.',
  recent: 'An export has already been made for this project in the last 6 hours.',
  invalidSource: (source: string) => `"${source}" is not a valid choice.`,
  notDone: 'This export is not done.',
  notDeletable: 'Only an export that is done or running can be deleted.',
  deleteDenied: 'Only an admin of the project or the user who started the export can delete it.',
  description: (projectName: string) => `Export of project ${projectName}`,
} as const;

export interface ExportJson {
  id: string;
  created: string;
  updated: string;
  corpus_id: string;
  user: { id: string; email: string; display_name: string };
  state: ExportState;
  source: string;
}

/** What the export job needs, fixed when the export starts. */
export interface ExportJobPayload {
  exportId: string;
  corpusId: string;
  /** The origin of mailed links and of the IIIF URLs of Folia's own images; null: the config's. */
  origin: string | null;
}

/** Where the file of an export is (or will be) once done. */
export function exportFilePath(dataDir: string, exportId: string): string {
  return path.join(dataDir, 'exports', `${exportId}.sqlite`);
}

/** The export by id, whatever its project; undefined when none (or the id is not a UUID). */
export async function findExport(db: Db, id: string): Promise<ExportRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  return db
    .selectFrom('corpus_exports')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
}

/** Exports as the API shows them, with their starters, in the order given. */
export async function exportsJson(db: Db, rows: readonly ExportRow[]): Promise<ExportJson[]> {
  const userIds = [...new Set(rows.map((row) => row.user_id))];
  const users =
    userIds.length === 0
      ? []
      : await db
          .selectFrom('users')
          .select(['id', 'email', 'display_name'])
          .where('id', 'in', userIds)
          .execute();
  const byId = new Map(users.map((user) => [user.id, user]));
  return rows.map((row) => {
    const user = byId.get(row.user_id);
    return {
      id: row.id,
      created: row.created,
      updated: row.updated,
      corpus_id: row.corpus_id,
      user: {
        id: row.user_id,
        email: user?.email ?? '',
        display_name: user?.display_name ?? '',
      },
      state: row.state,
      source: row.source,
    };
  });
}

export async function exportJson(db: Db, row: ExportRow): Promise<ExportJson> {
  return (await exportsJson(db, [row]))[0]!;
}

/** Why a new export of the project is refused now, or null when it may start. */
async function refusal(db: Db, corpusId: string): Promise<string | null> {
  const busy = await db
    .selectFrom('corpus_exports')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('state', 'in', ['created', 'running'])
    .executeTakeFirst();
  if (busy) return EXPORT_MESSAGES.running;
  const since = new Date(Date.now() - EXPORT_COOLDOWN_MS).toISOString();
  const recent = await db
    .selectFrom('corpus_exports')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('state', '=', 'done')
    .where('created', '>', since)
    .executeTakeFirst();
  return recent ? EXPORT_MESSAGES.recent : null;
}

/**
 * Starts an export of the project for `user`: 404 when the project is unreadable, 403 without
 * contributor access, 400 on another source, while an export is created or running, or when
 * one was done less than 6 hours ago. Returns the export, state `created`, its job queued.
 * `origin` is the one links in the mail and Folia's own IIIF URLs are built from (the request's,
 * server/origin.ts); without it the job uses FOLIA_PUBLIC_URL.
 */
export async function startExport(
  db: Db,
  dialect: Dialect,
  corpusId: string,
  user: User,
  source: string = 'default',
  origin: string | null = null,
): Promise<ExportRow> {
  const access = await findCorpusAccess(db, user, corpusId);
  if (!access) throw notFound();
  if (!access.rights.includes('write')) throw permissionDenied(EXPORT_MESSAGES.contributor);
  if (!(EXPORT_SOURCES as readonly string[]).includes(source)) {
    throw validationError('source', EXPORT_MESSAGES.invalidSource(source), 'invalid_choice');
  }
  const corpus = access.corpus;
  return db.transaction().execute(async (trx) => {
    // PostgreSQL: hold the project's row so two starts at once run one after the other (SQLite
    // writes one transaction at a time).
    if (dialect === 'postgres') {
      await trx
        .selectFrom('corpora')
        .select('id')
        .where('id', '=', corpus.id)
        .forUpdate()
        .execute();
    }
    const refused = await refusal(trx, corpus.id);
    if (refused) throw badRequest(refused);
    const id = randomUUID();
    const payload: ExportJobPayload = { exportId: id, corpusId: corpus.id, origin };
    const job = await enqueueJob(trx, {
      kind: EXPORT_JOB,
      description: EXPORT_MESSAGES.description(corpus.name),
      userId: user.id,
      corpusId: corpus.id,
      payload,
    });
    const now = nowIso();
    return trx
      .insertInto('corpus_exports')
      .values({
        id,
        corpus_id: corpus.id,
        user_id: user.id,
        state: 'created',
        source,
        job_id: job.id,
        error: null,
        size: null,
        created: now,
        updated: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
