/**
 * Files a task leaves behind (api part 2 §2.6 "Artifact"): its agent PUTs each one, streamed to
 * $FOLIA_DATA_DIR/artifacts/<task id>/<path>; users list and download them. A path is relative
 * and stays inside the task's folder: no "..", no "." segment, no absolute path.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { TaskArtifactTable } from '../../db/schema';
import { badRequest, notFound, validationError } from '../../errors';
import { nowIso } from '../../clock';
import { streamToFile } from '../../storage/streamToFile';

export type ArtifactRow = Selectable<TaskArtifactTable>;

/** The largest artifact kept: 1 GiB. */
export const MAX_ARTIFACT_BYTES = 1024 ** 3;
const MAX_PATH_LENGTH = 250;

export interface ArtifactJson {
  id: string;
  path: string;
  size: number;
  content_type: string;
  s3_put_url: null;
  created: string;
  updated: string;
}

export function artifactJson(row: ArtifactRow): ArtifactJson {
  return {
    id: row.id,
    path: row.path,
    size: Number(row.size),
    content_type: row.content_type,
    s3_put_url: null,
    created: row.created,
    updated: row.updated,
  };
}

export const BAD_ARTIFACT_PATH =
  'An artifact path is relative, made of names separated by "/", without "." or "..".';

/** The path as stored, or null when it could leave the task's folder or name nothing. */
export function safeArtifactPath(raw: string): string | null {
  if (!raw || raw.length > MAX_PATH_LENGTH) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(raw) || raw.startsWith('/')) return null;
  const segments = raw.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return null;
  }
  return segments.join('/');
}

export function artifactsDir(dataDir: string, taskId: string): string {
  return path.join(dataDir, 'artifacts', taskId);
}

export function artifactFilePath(dataDir: string, taskId: string, relative: string): string {
  const root = artifactsDir(dataDir, taskId);
  const target = path.resolve(root, ...relative.split('/'));
  // safeArtifactPath already refused what could escape; this is the last word on it.
  if (!target.startsWith(root + path.sep)) throw notFound();
  return target;
}

export async function listArtifacts(db: Db, taskId: string): Promise<ArtifactJson[]> {
  const rows = await db
    .selectFrom('task_artifacts')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('path')
    .execute();
  return rows.map(artifactJson);
}

export async function findArtifact(
  db: Db,
  taskId: string,
  raw: string,
): Promise<ArtifactRow | null> {
  const relative = safeArtifactPath(raw);
  if (!relative) return null;
  const row = await db
    .selectFrom('task_artifacts')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('path', '=', relative)
    .executeTakeFirst();
  return row ?? null;
}

const tooLarge = () =>
  badRequest(`An artifact may not be larger than ${MAX_ARTIFACT_BYTES} bytes.`, 'too_large');

/** Streams `body` to disk (never held in memory) and records it, replacing one of that path. */
export async function storeArtifact(
  db: Db,
  dataDir: string,
  taskId: string,
  raw: string,
  contentType: string | undefined,
  body: Readable | undefined,
  contentLength: string | undefined,
): Promise<ArtifactJson> {
  const relative = safeArtifactPath(raw);
  if (!relative) throw validationError('path', BAD_ARTIFACT_PATH);
  if (contentLength !== undefined && Number(contentLength) > MAX_ARTIFACT_BYTES) throw tooLarge();
  const target = artifactFilePath(dataDir, taskId, relative);
  const size = await streamToFile(
    target,
    body,
    {
      check: (received) => (received > MAX_ARTIFACT_BYTES ? tooLarge() : null),
      interrupted: () => badRequest('The upload was interrupted before the end of the file.'),
    },
    async ({ partial, size }) => {
      await fs.promises.rename(partial, target);
      return size;
    },
  );
  const now = nowIso();
  const row = await db
    .insertInto('task_artifacts')
    .values({
      id: randomUUID(),
      task_id: taskId,
      path: relative,
      size,
      content_type: contentType?.trim() || 'application/octet-stream',
      created: now,
      updated: now,
    })
    .onConflict((oc) =>
      oc.columns(['task_id', 'path']).doUpdateSet((eb) => ({
        size: eb.ref('excluded.size'),
        content_type: eb.ref('excluded.content_type'),
        updated: eb.ref('excluded.updated'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return artifactJson(row);
}

/** Removes a task's stored files (its rows go with the task). */
export async function removeArtifacts(dataDir: string, taskId: string): Promise<void> {
  await fs.promises.rm(artifactsDir(dataDir, taskId), { recursive: true, force: true });
}
