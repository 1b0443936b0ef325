/**
 * The `export.sqlite` job: builds a project's export file (sqliteExport.ts) at its place under
 * the data dir, moving the export created → running → done or failed, and mails its starter the
 * outcome. The builder writes a temporary file and renames it into place, so the job may run
 * again from the start after a restart (retryOnRestart); an export whose job ended without a
 * word to it goes to failed (settleInterruptedExports). Importing this module registers the job.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../clock';
import { defineJob, type JobContext } from '../../jobs/queue';
import type { MailMessage } from '../../mail';
import { buildSqliteExport } from './sqliteExport';
import { EXPORT_JOB, exportFilePath, type ExportJobPayload, type ExportRow } from './exports';

export const EXPORT_JOB_MESSAGES = {
  gone: 'The export was deleted before it was built.',
  doneSubject: (project: string) => `Your export of the project ${project} is ready`,
  failedSubject: (project: string) => `Your export of the project ${project} failed`,
} as const;

/** Where the export can be downloaded; the API's own URL, which the session cookie opens. */
export function exportDownloadUrl(origin: string, exportId: string): string {
  return `${origin.replace(/\/+$/, '')}/api/v1/export/${exportId}/`;
}

export function exportDoneMail(
  to: { email: string; display_name: string },
  project: string,
  link: string,
): MailMessage {
  return {
    to: to.email,
    subject: EXPORT_JOB_MESSAGES.doneSubject(project),
    text: [
      `Hello ${to.display_name},`,
      '',
      `The SQLite export of the project ${project} you started on Folia is done.`,
      'Download it from this link (you must be logged in to Folia):',
      '',
      link,
      '',
      'The export is deleted two weeks after it was made.',
      '',
    ].join('\n'),
  };
}

export function exportFailedMail(
  to: { email: string; display_name: string },
  project: string,
  error: string,
): MailMessage {
  return {
    to: to.email,
    subject: EXPORT_JOB_MESSAGES.failedSubject(project),
    text: [
      `Hello ${to.display_name},`,
      '',
      `The SQLite export of the project ${project} you started on Folia failed:`,
      '',
      error,
      '',
      'You may start another one from the project exports of the project.',
      '',
    ].join('\n'),
  };
}

/** Changes an export still in one of `from`; false when it was deleted or moved on meanwhile. */
async function moveExport(
  app: FastifyInstance,
  id: string,
  from: ExportRow['state'][],
  changes: Partial<Pick<ExportRow, 'state' | 'error' | 'size'>>,
): Promise<boolean> {
  const result = await app.db
    .updateTable('corpus_exports')
    .set({ ...changes, updated: nowIso() })
    .where('id', '=', id)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Mails the starter; a mail that cannot leave is logged and changes nothing else. */
async function mailStarter(
  app: FastifyInstance,
  userId: string,
  message: (to: { email: string; display_name: string }) => MailMessage,
): Promise<void> {
  const user = await app.db
    .selectFrom('users')
    .select(['email', 'display_name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return;
  const mail = message(user);
  try {
    await app.mailer.send(mail);
  } catch (error) {
    app.log.error({ err: error }, `could not send "${mail.subject}" to ${mail.to}`);
  }
}

async function removeQuietly(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

async function runExport(ctx: JobContext<ExportJobPayload>): Promise<unknown> {
  const { app, payload } = ctx;
  const row = await app.db
    .selectFrom('corpus_exports')
    .innerJoin('corpora', 'corpora.id', 'corpus_exports.corpus_id')
    .select(['corpus_exports.user_id', 'corpora.name as project'])
    .where('corpus_exports.id', '=', payload.exportId)
    .executeTakeFirst();
  if (
    !row ||
    !(await moveExport(app, payload.exportId, ['created', 'running'], { state: 'running' }))
  )
    throw new Error(EXPORT_JOB_MESSAGES.gone);

  const file = exportFilePath(app.config.dataDir, payload.exportId);
  const origin = payload.origin ?? app.config.publicUrl ?? undefined;
  let result;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    result = await buildSqliteExport({ db: app.db, dialect: app.dialect }, payload.corpusId, file, {
      origin,
      onProgress: (fraction) => ctx.progress(fraction),
      shouldStop: () => ctx.shouldStop(),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (await moveExport(app, payload.exportId, ['running'], { state: 'failed', error: message }))
      await mailStarter(app, row.user_id, (to) => exportFailedMail(to, row.project, message));
    throw error;
  }
  // Stopped: deleted by its owner (the row and file are gone with it), or the server is going
  // down, and the job runs again after the restart.
  if (result.stopped) return result;

  const { size } = await fs.stat(file);
  if (!(await moveExport(app, payload.exportId, ['running'], { state: 'done', size }))) {
    // Deleted while the last page was written: nothing may keep its file.
    await removeQuietly(file);
    return result;
  }
  // Without any origin known (FOLIA_PUBLIC_URL unset, started by a caller that gave none) the
  // link is the path alone, still enough to find the export.
  const link = exportDownloadUrl(origin ?? '', payload.exportId);
  await mailStarter(app, row.user_id, (to) => exportDoneMail(to, row.project, link));
  return result;
}

defineJob<ExportJobPayload>(EXPORT_JOB, runExport, { retryOnRestart: true });
