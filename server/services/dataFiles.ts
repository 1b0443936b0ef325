/**
 * Files uploaded into a project for an import (Arkindex's DataFile, spec 000 §7 "Process"):
 * declared first (name, size, type), then their content is PUT to the `s3_put_url` we give,
 * which streams it to <dataDir>/uploads/<id> and checks its size (and hash, when declared).
 * Checked files are then imported together: they are staged under their own names in a fresh
 * folder, which an import job reads and removes.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ColumnType, Selectable } from 'kysely';
import { nowIso } from '../clock';
import { streamToFile } from '../storage/streamToFile';
import type { Db } from '../db';
import type { Job, User } from '../db/schema';
import { badRequest, notFound, permissionDenied, validationError, type ApiError } from '../errors';
import { IMPORT_JOB, type ImportJobPayload } from '../imports/job';
import { createFilesProcess } from './filesProcess';
import { enqueueJob } from '../jobs/queue';
import type { PageSource } from '../pagination';
import {
  checkRight,
  findCorpusAccess,
  findElementAccess,
  requireUuid,
  type CorpusAccess,
  type Right,
} from '../permissions';

export type DataFileStatus = 'unchecked' | 'checked' | 'error';

/** The table of migration 0006_data_files. */
export interface DataFileTable {
  id: string;
  corpus_id: string;
  creator_id: string | null;
  name: string;
  /** bigint: PostgreSQL returns it as a string, so read it through Number(). */
  size: ColumnType<number | string, number, number>;
  content_type: string;
  hash: string | null;
  status: DataFileStatus;
  created: string;
  updated: string;
}

// Declared beside the only code that uses the table, as jobs/queue.ts does for its columns.
declare module '../db/schema' {
  interface Database {
    data_files: DataFileTable;
  }
}

export type DataFile = Selectable<DataFileTable>;

/** The largest file one may declare and upload: 2 GiB (a TIFF scan of a large map fits). */
export const MAX_FILE_SIZE = 2 * 1024 ** 3;
/** How many files one import may take at once. */
export const MAX_IMPORT_FILES = 5000;
/** Imports sweep old leftovers (sweepLeftovers) at most this often. */
const SWEEP_EVERY_MS = 3600 * 1000;
const lastSweeps = new Map<string, number>();

export interface DataFileJson {
  id: string;
  name: string;
  hash: string | null;
  size: number;
  content_type: string;
  status: DataFileStatus;
  /** Our files are not on S3: there is nothing to download, as with Arkindex's private buckets. */
  s3_url: null;
  /** Where to PUT the content; null once it is stored and checked. */
  s3_put_url: string | null;
  corpus: string;
  created: string;
}

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function stagingRoot(dataDir: string): string {
  return path.join(dataDir, 'import-staging');
}

/** Where a file's content is kept once uploaded. */
export function dataFilePath(dataDir: string, id: string): string {
  return path.join(uploadsDir(dataDir), id);
}

export function uploadUrl(origin: string, id: string): string {
  return `${origin}/api/v1/process/file/${id}/upload/`;
}

export function dataFileJson(file: DataFile, origin: string): DataFileJson {
  return {
    id: file.id,
    name: file.name,
    hash: file.hash,
    size: Number(file.size),
    content_type: file.content_type,
    status: file.status,
    s3_url: null,
    s3_put_url: file.status === 'checked' ? null : uploadUrl(origin, file.id),
    corpus: file.corpus_id,
    created: file.created,
  };
}

function doesNotExist(attr: string, value: string): ApiError {
  return validationError(attr, `Invalid pk "${value}" - object does not exist.`, 'does_not_exist');
}

export interface DataFileAccess {
  file: DataFile;
  access: CorpusAccess;
}

/** A file named in a path: 404 when the id is bad, unknown or unreadable; 403 without `right`. */
export async function requireDataFileRight(
  db: Db,
  user: User | null,
  id: string,
  right: Right,
): Promise<DataFileAccess> {
  const file = await db
    .selectFrom('data_files')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  const access = file ? await findCorpusAccess(db, user, file.corpus_id) : null;
  if (!file || !access) throw notFound();
  checkRight(access, right);
  return { file, access };
}

export interface CreateDataFileInput {
  corpus: string;
  name: string;
  size: number;
  content_type: string;
  hash?: string | null | undefined;
}

/** CreateDataFile: the corpus comes from the body, so an unreadable one is an invalid value. */
export async function createDataFile(
  db: Db,
  user: User,
  input: CreateDataFileInput,
): Promise<DataFile> {
  const access = await findCorpusAccess(db, user, input.corpus);
  if (!access) throw doesNotExist('corpus', input.corpus);
  checkRight(access, 'write');
  const now = nowIso();
  return db
    .insertInto('data_files')
    .values({
      id: randomUUID(),
      corpus_id: access.corpus.id,
      creator_id: user.id,
      name: input.name,
      size: input.size,
      content_type: input.content_type,
      hash: input.hash?.toLowerCase() ?? null,
      status: 'unchecked',
      created: now,
      updated: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The project's files, newest first. */
export function dataFileSource(db: Db, corpusId: string): PageSource<DataFile> {
  const query = db.selectFrom('data_files').where('corpus_id', '=', corpusId);
  return {
    count: async () =>
      Number(
        (await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()).count,
      ),
    fetch: ({ limit, offset }) =>
      query
        .selectAll()
        .orderBy('created', 'desc')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute(),
  };
}

const UPLOAD_INTERRUPTED = 'The upload was interrupted before the end of the file.';

function sizeMismatch(received: number, declared: number): ApiError {
  return badRequest(
    `The uploaded content is ${received} bytes long, but the file was declared with ${declared} bytes.`,
    'size_mismatch',
  );
}

/**
 * Who may send a file's content: its creator (or a site admin), still a contributor to the
 * project, and only while the content is not stored yet.
 */
export function checkCanUpload(user: User, { file, access }: DataFileAccess): void {
  if (file.creator_id !== user.id && !user.is_admin) {
    throw permissionDenied('Only the user who created this file may upload its content.');
  }
  checkRight(access, 'write');
  if (file.status === 'checked') {
    throw badRequest('The content of this file has already been uploaded.', 'already_uploaded');
  }
}

/**
 * Streams an upload to <dataDir>/uploads/<id>, never holding it in memory. The content must be
 * exactly the declared size (and match the declared MD5 hash, when one was given): otherwise
 * nothing is kept and the file stays unchecked, so the upload can be tried again.
 */
export async function receiveUpload(
  db: Db,
  dataDir: string,
  file: DataFile,
  body: Readable | undefined,
  contentLength: string | undefined,
): Promise<DataFile> {
  const declared = Number(file.size);
  // A length announced up front is checked before a byte is read.
  if (contentLength !== undefined && /^\d+$/.test(contentLength)) {
    const announced = Number(contentLength);
    if (announced !== declared) throw sizeMismatch(announced, declared);
  }
  return streamToFile(
    path.join(uploadsDir(dataDir), file.id),
    body,
    {
      check: (received) =>
        received > declared
          ? badRequest(
              `The uploaded content is longer than the ${declared} bytes the file was declared with.`,
              'size_mismatch',
            )
          : null,
      hash: 'md5',
      interrupted: () => badRequest(UPLOAD_INTERRUPTED, 'upload_interrupted'),
    },
    async ({ partial, size: received, hash: digest }) => {
      if (received !== declared) throw sizeMismatch(received, declared);
      const hash = digest!;
      if (file.hash && file.hash !== hash) {
        throw badRequest(
          `The uploaded content does not match the declared hash (its MD5 is ${hash}).`,
          'hash_mismatch',
        );
      }
      const target = dataFilePath(dataDir, file.id);
      await fs.promises.rename(partial, target);
      const updated = await db
        .updateTable('data_files')
        .set({ status: 'checked', hash, updated: nowIso() })
        .where('id', '=', file.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) {
        // Deleted while its content was on the way.
        await fs.promises.rm(target, { force: true });
        throw notFound();
      }
      return updated;
    },
  );
}

export interface UpdateDataFileInput {
  name?: string | undefined;
  status?: 'checked' | undefined;
}

/**
 * PartialUpdateDataFile: a new name, or status "checked", which checks the stored content
 * against the declared size, as Arkindex checks the S3 object.
 */
export async function updateDataFile(
  db: Db,
  dataDir: string,
  file: DataFile,
  input: UpdateDataFileInput,
): Promise<DataFile> {
  const changes: Partial<{ name: string; status: DataFileStatus; hash: string }> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.status === 'checked' && file.status !== 'checked') {
    const stored = await fs.promises.stat(dataFilePath(dataDir, file.id)).catch(() => null);
    if (!stored) throw validationError('status', 'The content of this file was not uploaded.');
    if (stored.size !== Number(file.size)) {
      throw validationError(
        'status',
        `The stored content is ${stored.size} bytes long, but the file was declared with ${Number(file.size)} bytes.`,
      );
    }
    changes.status = 'checked';
  }
  if (Object.keys(changes).length === 0) return file;
  const updated = await db
    .updateTable('data_files')
    .set({ ...changes, updated: nowIso() })
    .where('id', '=', file.id)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw notFound();
  return updated;
}

export async function deleteDataFile(db: Db, dataDir: string, file: DataFile): Promise<void> {
  await db.deleteFrom('data_files').where('id', '=', file.id).execute();
  await fs.promises.rm(dataFilePath(dataDir, file.id), { force: true });
}

// What is left of a name once path separators, control characters and reserved characters go.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[/\\\u0000-\u001f\u007f<>:"|?*]/g;
// ".." never survives, even inside a name: nothing downstream may read it as the parent folder.
const DOT_RUNS = /\.{2,}/g;
const MAX_NAME_BYTES = 200;

function truncateBytes(text: string, max: number): string {
  let result = text;
  while (Buffer.byteLength(result) > max) result = result.slice(0, -1);
  return result;
}

/** A file name that is safe to create in a folder: one path segment, never hidden or "..". */
export function safeFileName(name: string): string {
  let safe = name.replace(UNSAFE_CHARS, '_').replace(DOT_RUNS, '_').trim();
  // Leading dots would hide the file (or name the folder itself or its parent).
  safe = safe.replace(/^\.+/, (dots) => '_'.repeat(dots.length));
  if (!safe) safe = 'file';
  const ext = path.extname(safe);
  const stem = safe.slice(0, safe.length - ext.length);
  if (Buffer.byteLength(safe) > MAX_NAME_BYTES) {
    const keptExt = truncateBytes(ext, 20);
    safe = truncateBytes(stem, MAX_NAME_BYTES - Buffer.byteLength(keptExt)) + keptExt;
  }
  return safe;
}

/**
 * Names for a set of files in one folder: each made safe, and a name met again (ignoring case,
 * as some file systems do) becomes "name (2).ext", "name (3).ext"…
 */
export function stagingNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const safe = safeFileName(name);
    let candidate = safe;
    const ext = path.extname(safe);
    const stem = safe.slice(0, safe.length - ext.length);
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** A hard link costs no space and no time; another file system or a refusal means a copy. */
async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await fs.promises.link(source, target);
  } catch {
    await fs.promises.copyFile(source, target, fs.constants.COPYFILE_EXCL);
  }
}

export interface ImportFilesInput {
  files: string[];
  folder_id?: string | null | undefined;
  folder_name?: string | null | undefined;
}

export interface ImportFilesOutcome {
  job: Job;
  /** The files process whose import task follows the job. */
  processId: string;
  staging: string;
}

/** "Import 2024-05-01 10:00" (UTC), the folder an import goes into when none is named. */
export function defaultFolderName(now = new Date()): string {
  return `Import ${now.toISOString().slice(0, 16).replace('T', ' ')}`;
}

function describeImport(count: number, into: string): string {
  return `Import of ${count} file${count === 1 ? '' : 's'} into ${into}`;
}

/**
 * CreateProcessFromFiles: checks the files (one project, all uploaded) and the target folder,
 * stages the files under their own names, and makes a files process whose one task follows the
 * import job enqueued with it, which removes the staging folder when it ends.
 */
export async function importDataFiles(
  db: Db,
  dataDir: string,
  user: User,
  input: ImportFilesInput,
): Promise<ImportFilesOutcome> {
  // DRF's words for an empty list of related objects.
  if (input.files.length === 0)
    throw validationError('files', 'This list may not be empty.', 'empty');
  sweepNowAndThen(db, dataDir);
  const ids = [...new Set(input.files.map((id) => id.toLowerCase()))];
  const rows = await db.selectFrom('data_files').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw doesNotExist('files', missing);
  const corpusIds = new Set(rows.map((row) => row.corpus_id));
  const [corpusId] = corpusIds;
  const access = corpusId ? await findCorpusAccess(db, user, corpusId) : null;
  // Files of a project the caller cannot read do not exist for them.
  if (!access) throw doesNotExist('files', ids[0]!);
  if (corpusIds.size > 1) throw validationError('files', 'All files must be in the same project.');
  checkRight(access, 'write');
  const files = ids.map((id) => byId.get(id)!);
  const unchecked = files.find((file) => file.status !== 'checked');
  if (unchecked) {
    throw validationError(
      'files',
      `The file "${unchecked.name}" has not been uploaded completely.`,
      'not_uploaded',
    );
  }

  let parent: { id: string; name: string } | null = null;
  if (input.folder_id) {
    const found = await findElementAccess(db, user, input.folder_id);
    if (!found) throw doesNotExist('folder_id', input.folder_id);
    if (found.element.corpus_id !== access.corpus.id) {
      throw validationError('folder_id', 'The folder must be in the same project as the files.');
    }
    parent = { id: found.element.id, name: found.element.name };
  }
  const folderName =
    input.folder_name !== undefined ? input.folder_name : parent ? null : defaultFolderName();

  const staging = path.join(stagingRoot(dataDir), randomUUID());
  await fs.promises.mkdir(staging, { recursive: true });
  try {
    const names = stagingNames(files.map((file) => file.name));
    for (const [index, file] of files.entries()) {
      try {
        await linkOrCopy(dataFilePath(dataDir, file.id), path.join(staging, names[index]!));
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOENT') throw error;
        throw validationError(
          'files',
          `The content of the file "${file.name}" is missing: upload it again.`,
          'not_uploaded',
        );
      }
    }
    const description = describeImport(
      files.length,
      folderName ?? parent?.name ?? access.corpus.name,
    );
    // The process, its task and the job exist together or not at all.
    return await db.transaction().execute(async (trx) => {
      const { processId, taskId } = await createFilesProcess(
        trx,
        user,
        access.corpus.id,
        description,
      );
      const payload: ImportJobPayload = {
        corpusId: access.corpus.id,
        userId: user.id,
        parentId: parent?.id ?? null,
        folderName,
        source: staging,
        removeSourceAfter: true,
        taskId,
      };
      const job = await enqueueJob(trx, {
        kind: IMPORT_JOB,
        description,
        userId: user.id,
        corpusId: access.corpus.id,
        payload,
      });
      return { job, processId, staging };
    });
  } catch (error) {
    await fs.promises.rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Leftovers only take room: an import sweeps them now and then, never in its own way. */
function sweepNowAndThen(db: Db, dataDir: string): void {
  const now = Date.now();
  if (now - (lastSweeps.get(dataDir) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweeps.set(dataDir, now);
  void sweepLeftovers(db, dataDir, now).catch(() => undefined);
}

/** Leftovers younger than this may belong to a request still under way. */
export const LEFTOVER_AGE_MS = 24 * 3600 * 1000;

async function entriesOlderThan(dir: string, before: number): Promise<string[]> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const old: string[] = [];
  for (const name of names) {
    const stat = await fs.promises.stat(path.join(dir, name)).catch(() => null);
    if (stat && stat.mtimeMs < before) old.push(name);
  }
  return old;
}

const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Removes what nothing will read again, once older than a day: staging folders of imports that
 * never ran (a queued import deleted, a process that died between staging and queuing),
 * uploads whose file was deleted with its project, and parts of interrupted uploads.
 * Returns the paths removed.
 */
export async function sweepLeftovers(db: Db, dataDir: string, now = Date.now()): Promise<string[]> {
  const before = now - LEFTOVER_AGE_MS;
  const removed: string[] = [];
  const remove = async (target: string) => {
    await fs.promises.rm(target, { recursive: true, force: true });
    removed.push(target);
  };

  const staged = await entriesOlderThan(stagingRoot(dataDir), before);
  if (staged.length) {
    // An import still to run (or running) reads its folder: its payload names it.
    const pending = await db
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', IMPORT_JOB)
      .where('status', 'in', ['queued', 'started'])
      .execute();
    const inUse = new Set(
      pending.map((job) => {
        try {
          return path.basename((JSON.parse(job.payload) as ImportJobPayload).source);
        } catch {
          return '';
        }
      }),
    );
    for (const name of staged) {
      if (!inUse.has(name)) await remove(path.join(stagingRoot(dataDir), name));
    }
  }

  const uploads = await entriesOlderThan(uploadsDir(dataDir), before);
  const stored = uploads.filter((name) => STORED_NAME.test(name));
  const known = new Set<string>();
  for (let start = 0; start < stored.length; start += 500) {
    const rows = await db
      .selectFrom('data_files')
      .select('id')
      .where('id', 'in', stored.slice(start, start + 500))
      .execute();
    for (const row of rows) known.add(row.id);
  }
  for (const name of uploads) {
    if (name.endsWith('.part') || (STORED_NAME.test(name) && !known.has(name))) {
      await remove(path.join(uploadsDir(dataDir), name));
    }
  }
  return removed;
}
