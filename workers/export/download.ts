/**
 * The SQLite export the task reads: it waits while the export is being built (a process
 * started with "a new export" runs before its export is done), polling the project's export
 * list, then streams the file to the scratch folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { ApiCallError, type Api } from '../tesseract/api';

interface ExportJson {
  id: string;
  state: 'created' | 'running' | 'done' | 'failed';
}

interface ExportPage {
  next: string | null;
  results: ExportJson[];
}

export interface WaitOptions {
  /** Between two looks at the list. */
  intervalMs: number;
  /** Longest wait for the export to be done. */
  timeoutMs: number;
  log: (line: string) => void;
}

/** From the environment, for the tests: EXPORT_POLL_MS and EXPORT_WAIT_MS. */
export function waitOptions(log: (line: string) => void, env = process.env): WaitOptions {
  const number = (value: string | undefined, fallback: number) =>
    value && Number.isFinite(Number(value)) && Number(value) > 0 ? Number(value) : fallback;
  return {
    intervalMs: number(env.EXPORT_POLL_MS, 5000),
    timeoutMs: number(env.EXPORT_WAIT_MS, 6 * 3600_000),
    log,
  };
}

export class ExportUnavailable extends Error {}

async function findExport(api: Api, corpusId: string, exportId: string): Promise<ExportJson> {
  // Newest first, 10 a page: the export a process waits for is on the first page or close.
  for (let next: string | null = `corpus/${corpusId}/export/`; next;) {
    const page: ExportPage = await api.json<ExportPage>('GET', next);
    const found = page.results.find((item) => item.id === exportId);
    if (found) return found;
    next = page.next;
  }
  throw new ExportUnavailable(
    `The SQLite export ${exportId} is not in the project's exports (deleted?): start a new one.`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitForExport(
  api: Api,
  corpusId: string,
  exportId: string,
  options: WaitOptions,
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let said: string | null = null;
  for (;;) {
    const { state } = await findExport(api, corpusId, exportId);
    if (state === 'done') return;
    if (state === 'failed') {
      throw new ExportUnavailable(`The SQLite export ${exportId} failed: start a new one.`);
    }
    if (state !== said) {
      options.log(`Waiting for the SQLite export ${exportId} (${state})…`);
      said = state;
    }
    if (Date.now() + options.intervalMs > deadline) {
      throw new ExportUnavailable(
        `The SQLite export ${exportId} was still ${state} after ` +
          `${Math.round(options.timeoutMs / 60_000)} minute(s): try again once it is done.`,
      );
    }
    await sleep(options.intervalMs);
  }
}

/** A large export on a slow link takes a while; a server that stops sending fails the task. */
const DOWNLOAD_TIMEOUT_MS = 2 * 3600_000;

/**
 * Streams the export's file to `<dir>/export.sqlite` and returns the path. Not through
 * Api.fetch, whose time limit is meant for single answers, not for a whole project's file.
 */
export async function downloadExport(
  api: Api,
  authorization: string,
  exportId: string,
  dir: string,
): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'export.sqlite');
  const url = api.url(`export/${exportId}/`);
  const response = await fetch(url, {
    headers: { authorization },
    signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
  });
  if (!response.ok) {
    throw new ApiCallError(response.status, 'GET', url, await response.text());
  }
  if (!response.body) throw new ExportUnavailable(`The SQLite export ${exportId} came back empty.`);
  await pipeline(Readable.fromWeb(response.body as WebStream), fs.createWriteStream(file));
  return file;
}
