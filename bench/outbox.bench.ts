/**
 * The offline layer against the server running as its own process, over HTTP:
 * - appending an edit to the outbox;
 * - replaying queued edits through the SyncEngine against the same requests sent directly, the
 *   way a good client would send them: at most CONCURRENCY in flight on both sides, and in order
 *   only where order matters to the server. Two cases, each side 1,000 requests:
 *   - creations under one folder: a folder's children keep the order they were made in, so each
 *     waits for the previous one's answer on both sides;
 *   - renames of 1,000 elements: independent, CONCURRENCY in flight on both sides.
 *   Sides alternate (which goes first swaps every pair); the figures are medians over PAIRS.
 *   Also the engine's own work: the same replays answered at once by a fetch in this process;
 * - a 50,000-element write into the local store (opening an element offline against online is
 *   measured in Chromium by offlineOpen.bench.ts).
 * IndexedDB here is fake-indexeddb in Node: the local work is its, not a browser's IndexedDB.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { ElementListItem } from '../src/api/types';
import { FoliaDatabase, type LocalElement } from '../src/offline/db';
import { createElement, updateElement } from '../src/offline/elementEdits';
import { SyncEngine } from '../src/offline/engine';
import type { Fetcher } from '../src/offline/transport';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import { measure, printTable, type Figure } from './measure';
import { seedProject, seedUser } from './seed';
import { median, stopBench } from './serverProcess';

const EDITS = 1000;
const BULK = 50_000;
const PAIRS = Math.max(1, Number(process.env.OUTBOX_BENCH_PAIRS ?? 5));
const CONCURRENCY = 4;
const GOAL = 1.2;

function listItem(id: string, corpusId: string, i: number): ElementListItem {
  return {
    id,
    type: 'page',
    name: `p${i}`,
    corpus: { id: corpusId },
    thumbnail_url: null,
    zone: null,
    rotation_angle: 0,
    mirrored: false,
    confidence: null,
    created: new Date().toISOString(),
    worker_run: null,
  };
}

/** A fetch of the API paths the client uses (`/api/v1/…`) on the server process, as the user. */
function httpFetcher(base: string, token: string): Fetcher {
  return (url, init) =>
    fetch(base + url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Token ${token}` },
    });
}

/** Runs `tasks` with at most `limit` of them pending at once, in their order. */
async function pool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

/**
 * Answers every edit at once with what the server would say (the element created or changed),
 * without a server: the engine's own time alone.
 */
function instantFetcher(corpusId: string): Fetcher {
  return async (url, init) => {
    const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
    const id = url.endsWith('/elements/create/') ? randomUUID() : url.split('/').at(-2)!;
    const element = { ...listItem(id, corpusId, 0), ...body, id, corpus: { id: corpusId } };
    return new Response(JSON.stringify(element), {
      status: url.endsWith('/elements/create/') ? 201 : 200,
      headers: { 'content-type': 'application/json', 'last-modified': new Date().toUTCString() },
    });
  };
}

interface Sent {
  status: number;
  body: { id?: string };
  lastModified: string | null;
}

async function send(
  fetcher: Fetcher,
  method: string,
  path: string,
  body: unknown,
  lastModified?: string | null,
): Promise<Sent> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'Idempotency-Key': randomUUID(),
  };
  if (lastModified) headers['If-Unmodified-Since'] = lastModified;
  const response = await fetcher(`/api/v1${path}`, {
    method,
    headers,
    body: JSON.stringify(body),
  });
  const sent = {
    status: response.status,
    body: (await response.json()) as { id?: string },
    lastModified: response.headers.get('last-modified'),
  };
  if (sent.status >= 300) throw new Error(`${method} ${path}: ${sent.status}`);
  return sent;
}

interface Pair {
  engine: number;
  direct: number;
}

function report(label: string, pairs: Pair[]): void {
  const ratio = median(pairs.map((pair) => pair.engine / pair.direct));
  console.log(
    `${label}: engine ${median(pairs.map((p) => p.engine)).toFixed(0)} ms, ` +
      `direct ${median(pairs.map((p) => p.direct)).toFixed(0)} ms, ratio ${ratio.toFixed(2)}× ` +
      `(median of ${pairs.length} alternated pairs: ` +
      `${pairs.map((p) => (p.engine / p.direct).toFixed(2)).join(', ')}; goal ≤ ${GOAL}×: ` +
      `${ratio <= GOAL ? 'met' : `${(ratio / GOAL).toFixed(2)}× over`})`,
  );
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function run(): Promise<void> {
  const throwaway = await makeThrowawayApp('sqlite', { label: 'bench' });
  let server: ChildServer | null = null;
  const db = new FoliaDatabase(`bench-${randomUUID()}`);
  try {
    const { app, config } = throwaway;
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Outbox bench');
    server = await startChildServer(config);
    const token = user.headers.authorization.replace('Token ', '');
    const fetcher = httpFetcher(server.url, token);
    const engine = new SyncEngine(db, { fetcher, concurrency: CONCURRENCY });
    const figures: Figure[] = [];

    // Appending: one rename per edit, each in its own transaction with its local change.
    const folder = await createElement(db, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Box',
    });
    await engine.sync();
    const folderId = (await db.idMap.get(folder))!.serverId;
    let n = 0;
    figures.push(
      await measure('outbox append (rename, coalesced)', EDITS, () =>
        updateElement(db, folderId, { name: `Box ${++n}` }),
      ),
    );
    n = 0;
    figures.push(
      await measure('outbox append (create)', EDITS, () =>
        createElement(db, { corpus: corpusId, parent: folderId, type: 'page', name: `f${++n}` }),
      ),
    );
    await db.outbox.clear();

    const creations: Pair[] = [];
    const renames: Pair[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const times = { engine: 0, direct: 0 };
      const created = { engine: [] as string[], direct: [] as Sent[] };
      const sides = {
        engine: async () => {
          const temp: string[] = [];
          for (let i = 0; i < EDITS; i += 1) {
            temp.push(
              await createElement(db, {
                corpus: corpusId,
                parent: folderId,
                type: 'page',
                name: `e${pair}.${i}`,
              }),
            );
          }
          times.engine = await timed(() => engine.sync());
          for (const id of temp) created.engine.push((await db.idMap.get(id))!.serverId);
        },
        // Children of one folder in the order they were made: each after the previous answer.
        direct: async () => {
          const t0 = performance.now();
          for (let i = 0; i < EDITS; i += 1) {
            const body = {
              corpus: corpusId,
              parent: folderId,
              type: 'page',
              name: `d${pair}.${i}`,
            };
            created.direct.push(await send(fetcher, 'POST', '/elements/create/', body));
          }
          times.direct = performance.now() - t0;
        },
      };
      const order =
        pair % 2 === 0 ? (['engine', 'direct'] as const) : (['direct', 'engine'] as const);
      for (const side of order) await sides[side]();
      creations.push({ ...times });

      const renameSides = {
        engine: async () => {
          for (const id of created.engine) await updateElement(db, id, { name: `r${pair} ${id}` });
          times.engine = await timed(() => engine.sync());
        },
        direct: async () => {
          times.direct = await timed(() =>
            pool(
              created.direct.map((element) => async () => {
                const id = element.body.id!;
                const path = `/element/${id}/`;
                await send(
                  fetcher,
                  'PATCH',
                  path,
                  { name: `r${pair} ${id}` },
                  element.lastModified,
                );
              }),
              CONCURRENCY,
            ),
          );
        },
      };
      for (const side of order) await renameSides[side]();
      renames.push({ ...times });
      if ((await db.outbox.count()) > 0) throw new Error('edits left in the outbox');
    }

    // The engine's own work: the same replays answered at once, in this process, by a fetch
    // that makes the server's answers up. What it costs here adds to the server's time on a
    // machine whose cores both take.
    const instant = instantFetcher(corpusId);
    const local = new SyncEngine(db, { fetcher: instant, concurrency: CONCURRENCY });
    const temp: string[] = [];
    for (let i = 0; i < EDITS; i += 1) {
      temp.push(
        await createElement(db, {
          corpus: corpusId,
          parent: folderId,
          type: 'page',
          name: `l${i}`,
        }),
      );
    }
    const localCreations = await timed(() => local.sync());
    for (const id of temp) {
      await updateElement(db, (await db.idMap.get(id))!.serverId, { name: `${id} renamed` });
    }
    const localRenames = await timed(() => local.sync());

    // Bulk write: one page of a huge list as the read path stores it, in one transaction.
    const rows: LocalElement[] = Array.from({ length: BULK }, (_, i) => {
      const id = randomUUID();
      return {
        id,
        corpusId,
        data: listItem(id, corpusId, i),
        full: false,
        lastModified: null,
        local: false,
        parentIds: [folderId],
        savedAt: Date.now(),
      };
    });
    const bulkStart = performance.now();
    await db.transaction('rw', db.elements, () => db.elements.bulkPut(rows));
    const bulkMs = performance.now() - bulkStart;

    printTable(figures);
    console.log(
      `replay against the same requests sent directly, ${CONCURRENCY} in flight at most:`,
    );
    report(`  ${EDITS} creations under one folder (in order)`, creations);
    report(`  ${EDITS} renames of distinct elements`, renames);
    console.log(
      `  the engine's own work, answers made up in this process (no server): ${EDITS} creations ` +
        `${localCreations.toFixed(0)} ms, ${EDITS} renames ${localRenames.toFixed(0)} ms`,
    );
    console.log(
      `bulk write of ${BULK} elements in one transaction: ${bulkMs.toFixed(0)} ms ` +
        `(${((BULK / bulkMs) * 1000).toFixed(0)} elements/s)`,
    );
    console.log(
      'opening an element offline against online: see offlineOpen.bench.ts (Chromium, the built app)',
    );
    console.log('offline pack of 20 pages: see packs.bench.ts (it needs Chromium)');
  } finally {
    await db.delete();
    await stopBench(server, throwaway);
  }
}
