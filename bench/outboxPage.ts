/**
 * The page side of outbox.bench.ts, bundled with the app's offline modules and run in Chromium
 * on the server's own origin: the outbox in the browser's IndexedDB, the SyncEngine's requests
 * and the direct ones through the page's fetch, as the app sends them. Each call is one side of
 * one pair, timed here; outbox.bench.ts alternates them.
 */
import type { ElementListItem } from '../src/api/types';
import { FoliaDatabase, type LocalElement } from '../src/offline/db';
import { createElement, updateElement } from '../src/offline/elementEdits';
import { SyncEngine } from '../src/offline/engine';
import type { Fetcher } from '../src/offline/transport';
import { measure, type Figure } from './measure';

const CONCURRENCY = 4;

export interface Setup {
  token: string;
  corpusId: string;
  edits: number;
}

export interface Sent {
  id: string;
  lastModified: string | null;
}

let setup: Setup;
let db: FoliaDatabase;
let engine: SyncEngine;
let folderId: string;

/** The page's fetch, as the user: a token, as a script would send (no cookies here). */
const asUser: Fetcher = (url, init) =>
  fetch(url, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Token ${setup.token}` },
  });

/** Runs `tasks` with at most `limit` of them pending at once, in their order. */
async function pool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

async function send(
  method: string,
  path: string,
  body: unknown,
  lastModified?: string | null,
): Promise<Sent> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'Idempotency-Key': crypto.randomUUID(),
  };
  if (lastModified) headers['If-Unmodified-Since'] = lastModified;
  const response = await asUser(`/api/v1${path}`, {
    method,
    headers,
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { id: string };
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
  return { id: answer.id, lastModified: response.headers.get('last-modified') };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** A fresh local database and a folder made through the outbox, as the user would. */
export async function start(options: Setup): Promise<void> {
  setup = options;
  db = new FoliaDatabase(`outbox-bench-${crypto.randomUUID()}`);
  engine = new SyncEngine(db, { fetcher: asUser, concurrency: CONCURRENCY });
  const folder = await createElement(db, {
    corpus: setup.corpusId,
    parent: null,
    type: 'folder',
    name: 'Box',
  });
  await engine.sync();
  folderId = (await db.idMap.get(folder))!.serverId;
}

/** Appending one edit to the outbox, each in its own transaction with its local change. */
export async function appends(): Promise<Figure[]> {
  let n = 0;
  const renames = await measure('outbox append (rename, coalesced)', setup.edits, () =>
    updateElement(db, folderId, { name: `Box ${++n}` }),
  );
  n = 0;
  const creations = await measure('outbox append (create)', setup.edits, () =>
    createElement(db, { corpus: setup.corpusId, parent: folderId, type: 'page', name: `f${++n}` }),
  );
  await db.outbox.clear();
  return [renames, creations];
}

/** Pages created under the folder through the outbox, named `${prefix}.${i}`: their temporary ids. */
async function createPages(prefix: string): Promise<string[]> {
  const temp: string[] = [];
  for (let i = 0; i < setup.edits; i += 1) {
    const page = { corpus: setup.corpusId, parent: folderId, type: 'page', name: `${prefix}.${i}` };
    temp.push(await createElement(db, page));
  }
  return temp;
}

/** Creations under one folder queued offline (not timed): their temporary ids. */
export function queueCreations(pair: number): Promise<string[]> {
  return createPages(`e${pair}`);
}

/** Replays what is queued: the time it takes, every edit reaching the server. */
export async function replay(): Promise<number> {
  const ms = await timed(() => engine.sync());
  if ((await db.outbox.count()) > 0) throw new Error('edits left in the outbox');
  return ms;
}

/** The server's ids of elements created here. */
export async function serverIds(temp: string[]): Promise<string[]> {
  return (await db.idMap.bulkGet(temp)).map((row) => row!.serverId);
}

/** The same creations sent directly: a folder's children in order, each after the previous. */
export async function directCreations(pair: number): Promise<{ ms: number; sent: Sent[] }> {
  const sent: Sent[] = [];
  const t0 = performance.now();
  for (let i = 0; i < setup.edits; i += 1) {
    const body = { corpus: setup.corpusId, parent: folderId, type: 'page', name: `d${pair}.${i}` };
    sent.push(await send('POST', '/elements/create/', body));
  }
  return { ms: performance.now() - t0, sent };
}

/** Renames of the elements the engine created, queued (not timed). */
export async function queueRenames(pair: number, ids: string[]): Promise<void> {
  for (const id of ids) await updateElement(db, id, { name: `r${pair} ${id}` });
}

/** The same renames sent directly, CONCURRENCY in flight, each based on its known version. */
export async function directRenames(pair: number, sent: Sent[]): Promise<number> {
  return timed(() =>
    pool(
      sent.map((element) => async () => {
        const body = { name: `r${pair} ${element.id}` };
        await send('PATCH', `/element/${element.id}/`, body, element.lastModified);
      }),
      CONCURRENCY,
    ),
  );
}

function listItem(id: string, i: number): ElementListItem {
  return {
    id,
    type: 'page',
    name: `p${i}`,
    corpus: { id: setup.corpusId },
    thumbnail_url: null,
    zone: null,
    rotation_angle: 0,
    mirrored: false,
    confidence: null,
    created: new Date().toISOString(),
    worker_run: null,
  };
}

/**
 * The engine's own work: the same replays answered at once in the page by a fetch that makes
 * the server's answers up (the element created or changed), with no server.
 */
export async function engineAlone(): Promise<{ creations: number; renames: number }> {
  const instant: Fetcher = async (url, init) => {
    const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
    const creating = url.includes('/elements/create/');
    const id = creating ? crypto.randomUUID() : url.split('?')[0]!.split('/').at(-2)!;
    const element = { ...listItem(id, 0), ...body, id, corpus: { id: setup.corpusId } };
    return new Response(JSON.stringify(element), {
      status: creating ? 201 : 200,
      headers: { 'content-type': 'application/json', 'last-modified': new Date().toUTCString() },
    });
  };
  const local = new SyncEngine(db, { fetcher: instant, concurrency: CONCURRENCY });
  const temp = await createPages('l');
  const creations = await timed(() => local.sync());
  for (const row of await db.idMap.bulkGet(temp)) {
    await updateElement(db, row!.serverId, { name: `${row!.serverId} renamed` });
  }
  const renames = await timed(() => local.sync());
  return { creations, renames };
}

/** One page of a huge list as the read path stores it, in one transaction. */
export async function bulkWrite(count: number): Promise<number> {
  const rows: LocalElement[] = Array.from({ length: count }, (_, i) => {
    const id = crypto.randomUUID();
    return {
      id,
      corpusId: setup.corpusId,
      data: listItem(id, i),
      full: false,
      lastModified: null,
      local: false,
      parentIds: [folderId],
      savedAt: Date.now(),
    };
  });
  return timed(() => db.transaction('rw', db.elements, () => db.elements.bulkPut(rows)));
}

export async function finish(): Promise<void> {
  await db.delete();
}
