/**
 * The search worker: builds and queries the projects' indexes off the page's thread. It opens
 * the app's IndexedDB database by name, without its schema (Dexie's dynamic mode), for each
 * build only: a newer app version upgrading the database is never blocked by it.
 */
import { Dexie } from 'dexie';
import { DeviceSearchEngine } from './engine';
import type { SearchReply, SearchRequest } from './protocol';

const engines = new Map<string, DeviceSearchEngine>();

function engineFor(dbName: string): DeviceSearchEngine {
  let engine = engines.get(dbName);
  if (!engine) {
    engine = new DeviceSearchEngine(
      async () => {
        const db = new Dexie(dbName);
        await db.open();
        return db;
      },
      (db) => db.close(),
    );
    engines.set(dbName, engine);
  }
  return engine;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SearchRequest>) => void) | null;
  postMessage: (message: SearchReply) => void;
};

scope.onmessage = (event) => {
  const request = event.data;
  const engine = engineFor(request.dbName);
  engine
    .search(request.corpusId, request.tree, request.params, request.generation)
    .then(
      (response): SearchReply => ({ id: request.id, ok: true, response, build: engine.lastBuild }),
      (error: unknown): SearchReply => ({
        id: request.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
    )
    .then((reply) => scope.postMessage(reply));
};
