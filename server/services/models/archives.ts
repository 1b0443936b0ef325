/**
 * Where model archives live: <dataDir>/models/<version id>. An archive is streamed to a temporary
 * file beside it while its SHA-256 is computed, and takes its final name only once every byte
 * announced has arrived: a file at the final name is always complete. The upload route and the
 * import-model command share this code.
 *
 * A version being stored is `processing` (a state spec 000 §4 names) from the moment its upload
 * claims it until its file has its final name; only then is it `available`. A server that stops
 * in between finds it `processing` when it starts again and settles it from what is on disk, so
 * no version is ever available without its whole archive.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { nowIso } from '../../clock';
import { streamToFile } from '../../storage/streamToFile';
import type { Db } from '../../db';
import type { ModelVersion } from '../../db/schema';
import { badRequest, notFound } from '../../errors';

/** The largest archive accepted: 20 GiB, room for large recognition models. */
export const MAX_ARCHIVE_SIZE = 20 * 1024 ** 3;

export const UPLOAD_INTERRUPTED = 'The upload was interrupted before the end of the archive.';
export const ALREADY_UPLOADED = 'This model version already has its archive.';

export function modelsDir(dataDir: string): string {
  return path.join(dataDir, 'models');
}

export function archivePath(dataDir: string, versionId: string): string {
  return path.join(modelsDir(dataDir), versionId);
}

function tooLarge(size: number) {
  return badRequest(
    `An archive may hold at most ${MAX_ARCHIVE_SIZE} bytes; this one has ${size}.`,
    'too_large',
  );
}

function sizeMismatch(received: number, expected: number) {
  return badRequest(
    `The upload announced ${expected} bytes but ${received} arrived.`,
    'size_mismatch',
  );
}

interface Written {
  partial: string;
  size: number;
  hash: string;
}

/**
 * Copies `source` to a fresh temporary file in the models folder, hashing as it goes. Rejects,
 * with the temporary file removed, when the source ends early, errs, or its byte count differs
 * from `expected` (when known).
 */
async function writeTemporary(
  dataDir: string,
  versionId: string,
  source: Readable | undefined,
  expected: number | null,
): Promise<Written> {
  if (expected !== null && expected > MAX_ARCHIVE_SIZE) throw tooLarge(expected);
  return streamToFile(
    path.join(modelsDir(dataDir), versionId),
    source,
    {
      check: (received) =>
        received > (expected ?? MAX_ARCHIVE_SIZE)
          ? expected === null
            ? tooLarge(received)
            : sizeMismatch(received, expected)
          : null,
      hash: 'sha256',
      interrupted: () => badRequest(UPLOAD_INTERRUPTED, 'upload_interrupted'),
    },
    async ({ partial, size, hash }) => {
      if (expected !== null && size !== expected) throw sizeMismatch(size, expected);
      if (size === 0) throw badRequest('The archive is empty.', 'empty');
      return { partial, size, hash: hash! };
    },
  );
}

/** Marks a version whose upload failed, unless its archive arrived meanwhile by another way. */
async function markFailed(db: Db, versionId: string): Promise<void> {
  await db
    .updateTable('model_versions')
    .set({ state: 'error', updated: nowIso() })
    .where('id', '=', versionId)
    .where('state', 'in', ['created', 'error'])
    .execute();
}

/**
 * Stores the archive of a version still waiting for it (state created or error): streamed to a
 * temporary file, claimed (`processing`) with its size and hash, given its final name, then
 * made available. A failed upload leaves the version in state error and no file behind.
 */
export async function storeArchive(
  db: Db,
  dataDir: string,
  version: ModelVersion,
  source: Readable | undefined,
  expected: number | null,
): Promise<ModelVersion> {
  if (version.state === 'available' || version.state === 'processing')
    throw badRequest(ALREADY_UPLOADED, 'already_uploaded');
  let written: Written;
  try {
    written = await writeTemporary(dataDir, version.id, source, expected);
  } catch (error) {
    await markFailed(db, version.id);
    throw error;
  }
  // The version is claimed first, so of two uploads racing each other exactly one stores its
  // file; the other is told the archive is there.
  const claimed = await db
    .updateTable('model_versions')
    .set({
      state: 'processing',
      size: written.size,
      hash: written.hash,
      archive_hash: written.hash,
      updated: nowIso(),
    })
    .where('id', '=', version.id)
    .where('state', 'in', ['created', 'error'])
    .returningAll()
    .executeTakeFirst();
  if (!claimed) {
    await fs.promises.rm(written.partial, { force: true });
    const exists = await db
      .selectFrom('model_versions')
      .select('id')
      .where('id', '=', version.id)
      .executeTakeFirst();
    // Otherwise deleted while its archive was on the way.
    if (exists) throw badRequest(ALREADY_UPLOADED, 'already_uploaded');
    throw notFound();
  }
  const target = archivePath(dataDir, version.id);
  try {
    await fs.promises.rename(written.partial, target);
  } catch (error) {
    await fs.promises.rm(written.partial, { force: true });
    await db
      .updateTable('model_versions')
      .set({ state: 'error', size: null, hash: null, archive_hash: null, updated: nowIso() })
      .where('id', '=', version.id)
      .execute();
    throw error;
  }
  const stored = await db
    .updateTable('model_versions')
    .set({ state: 'available', updated: nowIso() })
    .where('id', '=', version.id)
    .where('state', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
  if (!stored) {
    // Deleted between the claim and the rename: its file must not outlive it.
    await fs.promises.rm(target, { force: true });
    throw notFound();
  }
  return stored;
}

/**
 * Settles the versions a stopped server left `processing`: available when their whole archive has
 * its final name (the rename is atomic, so a file there is complete), else error with nothing kept.
 */
export async function settleStoredArchives(db: Db, dataDir: string): Promise<void> {
  const pending = await db
    .selectFrom('model_versions')
    .select(['id', 'size'])
    .where('state', '=', 'processing')
    .execute();
  for (const version of pending) {
    const file = archivePath(dataDir, version.id);
    const size = await fs.promises.stat(file).then(
      (stat) => stat.size,
      () => null,
    );
    if (size !== null && size === Number(version.size)) {
      await db
        .updateTable('model_versions')
        .set({ state: 'available', updated: nowIso() })
        .where('id', '=', version.id)
        .where('state', '=', 'processing')
        .execute();
    } else {
      await fs.promises.rm(file, { force: true });
      await db
        .updateTable('model_versions')
        .set({ state: 'error', size: null, hash: null, archive_hash: null, updated: nowIso() })
        .where('id', '=', version.id)
        .where('state', '=', 'processing')
        .execute();
    }
  }
}

/** Removes a version's archive, if it has one. */
export async function removeArchive(dataDir: string, versionId: string): Promise<void> {
  await fs.promises.rm(archivePath(dataDir, versionId), { force: true });
}
