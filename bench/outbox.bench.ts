/**
 * The offline layer: appending an edit to the outbox, replaying 1,000 queued edits against the
 * API compared with the same requests sent directly, a 50,000-element write into the local
 * store, and opening an element from the store offline compared with from the API. IndexedDB
 * here is fake-indexeddb in Node: the figures compare the paths with each other, a browser's
 * IndexedDB is faster in absolute terms.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { ElementListItem } from '../src/api/types';
import { FoliaDatabase, type LocalElement } from '../src/offline/db';
import { createElement, updateElement } from '../src/offline/elementEdits';
import { readElement } from '../src/offline/elementReads';
import { SyncEngine } from '../src/offline/engine';
import { inProcessFetcher } from '../tests/offline/inProcessServer';
import { measure, printTable, type Figure } from './measure';
import { seedProject, seedUser, withBenchApp } from './seed';

const EDITS = 1000;
const BULK = 50_000;

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

export async function run(): Promise<void> {
  await withBenchApp('sqlite', async (app) => {
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Outbox bench');
    const token = user.headers.authorization.replace('Token ', '');
    const fetcher = inProcessFetcher(app, token);
    const figures: Figure[] = [];

    // Appending: one rename per edit, each in its own transaction with its local change.
    const db = new FoliaDatabase(`bench-${randomUUID()}`);
    const folder = await createElement(db, {
      corpus: corpusId,
      parent: null,
      type: 'folder',
      name: 'Box',
    });
    await new SyncEngine(db, { fetcher }).sync();
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

    // Replay: 1,000 queued creations, against the same 1,000 POSTs sent one by one.
    for (let i = 0; i < EDITS; i += 1) {
      await createElement(db, { corpus: corpusId, parent: folderId, type: 'page', name: `r${i}` });
    }
    const engine = new SyncEngine(db, { fetcher });
    const replayStart = performance.now();
    const replayed = await engine.sync();
    const replayMs = performance.now() - replayStart;
    const directStart = performance.now();
    for (let i = 0; i < EDITS; i += 1) {
      await fetcher('/api/v1/elements/create/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ corpus: corpusId, parent: folderId, type: 'page', name: `d${i}` }),
      });
    }
    const directMs = performance.now() - directStart;

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

    // Opening an element: from the store with the network off, and through the API.
    figures.push(
      await measure('open element offline (store)', 200, () =>
        readElement(db, folderId, { online: false }),
      ),
    );
    const original = globalThis.fetch;
    globalThis.fetch = fetcher as typeof fetch;
    try {
      figures.push(
        await measure('open element online (API + store)', 200, () =>
          readElement(db, folderId, { online: true }),
        ),
      );
    } finally {
      globalThis.fetch = original;
    }

    printTable(figures);
    console.log(
      `replay of ${EDITS} queued creations: ${replayMs.toFixed(0)} ms (${replayed.sent} sent), ` +
        `same POSTs sent directly: ${directMs.toFixed(0)} ms, ratio ${(replayMs / directMs).toFixed(2)}`,
    );
    console.log(
      `bulk write of ${BULK} elements in one transaction: ${bulkMs.toFixed(0)} ms ` +
        `(${((BULK / bulkMs) * 1000).toFixed(0)} elements/s)`,
    );
    const offline = figures.find((f) => f.label.startsWith('open element offline'))!;
    const online = figures.find((f) => f.label.startsWith('open element online'))!;
    console.log(
      `open element offline vs online, median: ${offline.medianMs.toFixed(2)} ms vs ` +
        `${online.medianMs.toFixed(2)} ms, ratio ${(offline.medianMs / online.medianMs).toFixed(2)}`,
    );
    console.log('offline pack of 20 pages: see packs.bench.ts (it needs Chromium)');
    await db.delete();
  });
}
