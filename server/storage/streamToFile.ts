/**
 * Streams an upload to a `.part` file beside where it will be kept, never holding it in memory.
 * Artifacts, data files and model archives all arrive this way; each says what a chunk may not
 * exceed and what to do with the complete file.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ApiError } from '../errors';

export interface StreamToFileOptions {
  /** Called with the byte count after each chunk: an error returned fails the upload. */
  check?: (received: number) => ApiError | null;
  /** The hash of the content to compute on the way (`md5`, `sha256`). */
  hash?: string;
  /** The error of a body that errs or closes before its end. */
  interrupted: () => ApiError;
}

export interface Written {
  partial: string;
  size: number;
  /** The hex digest, when a hash was asked for. */
  hash: string | undefined;
}

/**
 * Writes `body` to `<base>.<random>.part` (its folder made if needed), then hands it to `use`.
 * When the body fails a check, errs or is interrupted, or `use` throws, the partial file is
 * removed and the error thrown again.
 */
export async function streamToFile<T>(
  base: string,
  body: Readable | undefined,
  options: StreamToFileOptions,
  use: (written: Written) => Promise<T>,
): Promise<T> {
  await fs.promises.mkdir(path.dirname(base), { recursive: true });
  // A name of its own, so two uploads to one place racing each other never mix their bytes.
  const partial = `${base}.${randomUUID()}.part`;
  const hash = options.hash ? createHash(options.hash) : null;
  let size = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const out = fs.createWriteStream(partial, { flags: 'wx' });
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        // The request is left paused, not destroyed: the client still reads our 400 (and the
        // route closes the connection after it) instead of a reset.
        body?.pause();
        // Settled once the file is closed, so the partial file removed next cannot reappear.
        if (out.closed) reject(error);
        else out.once('close', () => reject(error));
        out.destroy();
      };
      out.on('error', fail);
      out.on('finish', () => {
        if (!failed) resolve();
      });
      if (!body) {
        out.end();
        return;
      }
      const interrupted = () => fail(options.interrupted());
      body.on('data', (chunk: Buffer) => {
        if (failed) return;
        size += chunk.length;
        const refused = options.check?.(size);
        if (refused) {
          fail(refused);
          return;
        }
        hash?.update(chunk);
        if (!out.write(chunk)) body.pause();
      });
      out.on('drain', () => {
        if (!failed) body.resume();
      });
      body.on('end', () => out.end());
      body.on('error', interrupted);
      body.on('aborted', interrupted);
      body.on('close', () => {
        if (!body.readableEnded) interrupted();
      });
    });
    return await use({ partial, size, hash: hash?.digest('hex') });
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
}
