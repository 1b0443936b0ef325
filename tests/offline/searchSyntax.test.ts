/**
 * The search syntax table (tests/search/syntaxCases.ts) on the device: every doc stored in the
 * local database as the app stores its source (an element of a list, a transcription row, a
 * listed metadata, a classification in its element, an entity in its transcription), searched
 * by searchOnDevice on this thread; each case expects exactly its hits, or the 400 with its
 * message, as the server's engines do.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit, SearchParams } from '@/api/search';
import { FoliaDatabase } from '@/offline/db';
import { searchOnDevice } from '@/offline/search/client';
import { SYNTAX_CASES, SYNTAX_DOCS } from '../search/syntaxCases';
import { storeCorpus, storeElement, storeTranscription } from './searchFixtures';

/** An element's name that folds to no word: its own document matches no word of a query. */
const SILENT_NAME = '·';

let db: FoliaDatabase;
let corpusId: string;
/** Hit id → doc key. */
const keyOf = new Map<string, string>();
/** The element documents of the elements that only carry a doc of another source. */
const carriers = new Set<string>();

beforeAll(async () => {
  db = new FoliaDatabase(`search-syntax-${randomUUID()}`);
  await db.open();
  corpusId = await storeCorpus(db, 'Syntax');
  for (const doc of SYNTAX_DOCS) {
    if (doc.source === 'element') {
      const element = await storeElement(db, { corpusId, type: 'text_line', name: doc.text });
      keyOf.set(`element:${element.id}`, doc.key);
      continue;
    }
    const holder = await storeElement(db, {
      corpusId,
      type: 'page',
      name: SILENT_NAME,
      ...(doc.source === 'classification' && { classes: [{ name: doc.text }] }),
      ...(doc.source === 'metadata' && { metadata: [{ name: 'note', value: doc.text }] }),
    });
    carriers.add(`element:${holder.id}`);
    if (doc.source === 'classification') {
      keyOf.set(`classification:${holder.classes![0]!.id}`, doc.key);
    } else if (doc.source === 'metadata') {
      keyOf.set(`metadata:${holder.metadata![0]!.id}`, doc.key);
    } else if (doc.source === 'transcription') {
      const made = await storeTranscription(db, holder.id, doc.text);
      keyOf.set(`transcription:${made.id}`, doc.key);
    } else {
      // An entity covering the whole text of its transcription; the transcription's own
      // document is the carrier's.
      const made = await storeTranscription(db, holder.id, doc.text, {
        entities: [
          {
            type: { id: randomUUID(), name: 'place', color: 'ff0000' },
            offset: 0,
            length: Array.from(doc.text).length,
          },
        ],
      });
      carriers.add(`transcription:${made.id}`);
      keyOf.set(`transcription_entity:${made.entities![0]!.id}`, doc.key);
    }
  }
});

afterAll(async () => {
  db.close();
  await db.delete();
});

/** Every page of a search's hits. */
async function searchAll(query: string): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  for (let page = 1; page < 100; page += 1) {
    const params: SearchParams = { query, sources: [], sort: 'relevance', page, facets: {} };
    const answer = await searchOnDevice(corpusId, params, { db });
    hits.push(...answer.results);
    if (!answer.next) {
      expect(hits).toHaveLength(answer.count);
      break;
    }
    expect(answer.next).toBe(`?page=${page + 1}`);
  }
  return hits;
}

function hitKeys(hits: SearchHit[]): string[] {
  const keys: string[] = [];
  for (const hit of hits) {
    if (carriers.has(hit.id)) continue;
    const key = keyOf.get(hit.id);
    expect(key, `unexpected hit ${hit.id}`).toBeDefined();
    keys.push(key!);
  }
  return keys.sort();
}

describe('the search syntax on the device', () => {
  for (const entry of SYNTAX_CASES) {
    const label = JSON.stringify(
      entry.query.length > 60 ? `${entry.query.slice(0, 60)}…` : entry.query,
    );
    if ('error' in entry) {
      it(`refuses ${label}`, async () => {
        const params: SearchParams = {
          query: entry.query,
          sources: [],
          sort: 'relevance',
          page: 1,
          facets: {},
        };
        await expect(searchOnDevice(corpusId, params, { db })).rejects.toMatchObject({
          status: 400,
          message: entry.error,
          fields: { query: [entry.error] },
        });
      });
    } else {
      it(`finds ${label}`, async () => {
        expect(hitKeys(await searchAll(entry.query))).toEqual(entry.hits);
      });
    }
  }
});
