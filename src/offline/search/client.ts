/**
 * Search on the device: what this device holds of a project (packs, pages opened before, edits
 * made here), searched with the server's syntax and folding and answered in the server's shape,
 * for the search page when the browser is offline or the server cannot be reached.
 *
 * The work runs in a Web Worker (worker.ts); where there is none (tests, old browsers) or it
 * fails to start, the same engine runs on the calling thread. The page counts the changes of
 * the tables search reads (Dexie's storagemutated event, which other tabs' changes reach too)
 * and sends that count with each search: the worker rebuilds a project's index when it is
 * newer than the one the index was built at.
 */
import { Dexie } from 'dexie';
import type { SearchParams, SearchResponse } from '@/api/search';
import { ApiError } from '@/api/errors';
import { parseSearchQuery } from '@/lib/search/query';
import { localDb } from '../db';
import { DeviceSearchEngine } from './engine';
import type { SearchReply, SearchRequest } from './protocol';

/** The tables documents are built from. */
const READ_TABLES = new Set(['elements', 'transcriptions', 'metadata', 'corpora', 'lists']);

const generations = new Map<string, number>();

Dexie.on('storagemutated', (parts) => {
  const touched = new Set<string>();
  for (const key of Object.keys(parts)) {
    // idb://<database>/<table>/<index>
    const match = /^idb:\/\/(.+)\/([^/]+)\/[^/]*$/.exec(key);
    if (match && READ_TABLES.has(match[2]!)) touched.add(match[1]!);
  }
  for (const name of touched) generations.set(name, (generations.get(name) ?? 0) + 1);
});

function generationOf(dbName: string): number {
  return generations.get(dbName) ?? 0;
}

/** Engines on this thread, by database name. */
const localEngines = new Map<string, DeviceSearchEngine>();

function localEngine(db: Dexie): DeviceSearchEngine {
  let engine = localEngines.get(db.name);
  if (!engine) {
    engine = new DeviceSearchEngine(async () => db);
    localEngines.set(db.name, engine);
  }
  return engine;
}

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<
  number,
  { resolve: (reply: SearchReply) => void; reject: (e: Error) => void }
>();

function startWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return (worker = null);
  try {
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return (worker = null);
  }
  worker.onmessage = (event: MessageEvent<SearchReply>) => {
    const entry = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    entry?.resolve(event.data);
  };
  worker.onerror = (event) => {
    // The worker could not start or crashed: searches go on on this thread.
    event.preventDefault?.();
    worker?.terminate();
    worker = null;
    for (const entry of waiting.values()) entry.reject(new Error('The search worker stopped.'));
    waiting.clear();
  };
  return worker;
}

function askWorker(target: Worker, request: Omit<SearchRequest, 'id'>): Promise<SearchReply> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    target.postMessage({ ...request, id } satisfies SearchRequest);
  });
}

export interface DeviceSearchOptions {
  /** The local database to search (tests); the app's own by default, in the worker. */
  db?: Dexie;
}

/**
 * Searches what this device holds of the project, in the server's answer's shape (page size
 * 20, facets). A query the syntax refuses rejects with the server's 400 (ApiError on `query`).
 */
export async function searchOnDevice(
  corpusId: string,
  params: SearchParams,
  options: DeviceSearchOptions = {},
): Promise<SearchResponse> {
  const parsed = parseSearchQuery(params.query);
  if (!parsed.ok) throw new ApiError(400, parsed.error, { query: [parsed.error] }, 'invalid');
  const db = options.db ?? localDb;
  const request = {
    dbName: db.name,
    corpusId,
    tree: parsed.tree,
    params,
    generation: generationOf(db.name),
  };
  const target = options.db ? null : startWorker();
  if (target) {
    try {
      const reply = await askWorker(target, request);
      if (reply.ok) return reply.response;
      throw new Error(reply.message);
    } catch {
      // Fall through to this thread: the store is the same.
    }
  }
  return localEngine(db).search(corpusId, parsed.tree, params, request.generation);
}

/** How long this thread's last index build of a database took (tests, measurements). */
export function lastLocalBuild(db: Dexie): { ms: number; documents: number } | null {
  return localEngines.get(db.name)?.lastBuild ?? null;
}
