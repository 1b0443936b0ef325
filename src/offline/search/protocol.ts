/** The messages between the page (client.ts) and the search worker (worker.ts). */
import type { SearchParams, SearchResponse } from '@/api/search';
import type { SearchNode } from '@/lib/search/query';

export interface SearchRequest {
  id: number;
  /** The IndexedDB database to read (db.ts's name). */
  dbName: string;
  corpusId: string;
  tree: SearchNode;
  params: SearchParams;
  /** Changes of the store seen by the page: a newer one than the index's rebuilds it. */
  generation: number;
}

export type SearchReply =
  | {
      id: number;
      ok: true;
      response: SearchResponse;
      build: { ms: number; documents: number } | null;
    }
  | { id: number; ok: false; message: string };
