/**
 * What the search API suites share: an indexable project, search documents made through the
 * API (each SyntaxDoc as the text of its source), and a search that follows `next` to the end.
 */
import { expect } from 'vitest';
import type { Client } from '../harness';
import type { SyntaxDoc } from '../../search/syntaxCases';

export interface Hit {
  id: string;
  source: string;
  element_id: string;
  [field: string]: unknown;
}

export interface SearchBody {
  count: number;
  number: number;
  next: string | null;
  previous: string | null;
  results: Hit[];
  facets: Record<string, { value: string; label: string; count: number }[]>;
}

/** A project made by `owner`, then marked indexable (only admins may). */
export async function makeIndexableProject(
  owner: Client,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await owner.post('corpus/', { name, ...extra });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  const patched = await owner.patch(`corpus/${id}/`, { indexable: true });
  expect(patched.statusCode).toBe(200);
  return id;
}

export function searchUrl(corpusId: string, params: Record<string, string | string[]> = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, item);
  }
  const text = search.toString();
  return `corpus/${corpusId}/search/${text ? `?${text}` : ''}`;
}

/** Every page of a search, following `next`. */
export async function searchAll(
  client: Client,
  corpusId: string,
  params: Record<string, string | string[]> = {},
): Promise<{ hits: Hit[]; first: SearchBody }> {
  let response = await client.get(searchUrl(corpusId, params));
  expect(response.statusCode, response.body).toBe(200);
  const first = response.json() as SearchBody;
  const hits = [...first.results];
  let next = first.next;
  while (next) {
    const url = new URL(next);
    response = await client.get(url.pathname + url.search);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as SearchBody;
    hits.push(...body.results);
    next = body.next;
  }
  expect(hits).toHaveLength(first.count);
  return { hits, first };
}

/** An element's name that folds to no word: its own document matches no word of a query. */
export const SILENT_NAME = '·';

export interface LoadedDocs {
  /** Search hit id (`source:item_id`) → doc key. */
  keyOf: Map<string, string>;
  /** Hit ids of the documents made only to carry a doc (holder elements, entity carriers). */
  carriers: Set<string>;
  /** Doc key → its element's id. */
  elementOf: Map<string, string>;
}

/** Each doc as the text of its source, through the API, on its own element. */
export async function loadDocs(
  client: Client,
  corpusId: string,
  docs: SyntaxDoc[],
): Promise<LoadedDocs> {
  const keyOf = new Map<string, string>();
  const carriers = new Set<string>();
  const elementOf = new Map<string, string>();
  const ok = async (promise: ReturnType<Client['post']>) => {
    const response = await promise;
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const allowed = await client.post(`corpus/${corpusId}/allowed-metadata/`, {
    type: 'text',
    name: 'note',
  });
  expect(allowed.statusCode, allowed.body).toBe(201);
  const entityType = await ok(client.post('entity/types/', { name: 'place', corpus: corpusId }));

  for (const doc of docs) {
    if (doc.source === 'element') {
      const element = await ok(
        client.post('elements/create/', { corpus: corpusId, type: 'text_line', name: doc.text }),
      );
      keyOf.set(`element:${element.id}`, doc.key);
      elementOf.set(doc.key, element.id);
      continue;
    }
    const holder = await ok(
      client.post('elements/create/', { corpus: corpusId, type: 'page', name: SILENT_NAME }),
    );
    carriers.add(`element:${holder.id}`);
    elementOf.set(doc.key, holder.id);
    switch (doc.source) {
      case 'transcription': {
        const made = await ok(
          client.post(`element/${holder.id}/transcription/`, { text: doc.text }),
        );
        keyOf.set(`transcription:${made.id}`, doc.key);
        break;
      }
      case 'metadata': {
        const made = await ok(
          client.post(`element/${holder.id}/metadata/`, {
            type: 'text',
            name: 'note',
            value: doc.text,
          }),
        );
        keyOf.set(`metadata:${made.id}`, doc.key);
        break;
      }
      case 'classification': {
        const mlClass = await ok(client.post(`corpus/${corpusId}/classes/`, { name: doc.text }));
        const made = await ok(
          client.post('classifications/', { element: holder.id, ml_class: mlClass.id }),
        );
        keyOf.set(`classification:${made.id}`, doc.key);
        break;
      }
      case 'transcription_entity': {
        // The entity is the whole text of a carrier transcription, itself left out.
        const carrier = await ok(
          client.post(`element/${holder.id}/transcription/`, { text: doc.text }),
        );
        carriers.add(`transcription:${carrier.id}`);
        const made = await ok(
          client.post(`transcription/${carrier.id}/entities/bulk/`, {
            transcription_entities: [
              { offset: 0, length: Array.from(doc.text).length, type_id: entityType.id },
            ],
          }),
        );
        keyOf.set(`transcription_entity:${made.transcription_entities[0].id}`, doc.key);
        break;
      }
    }
  }
  return { keyOf, carriers, elementOf };
}

/** The doc keys of these hits, sorted; a hit that is neither a doc nor a carrier fails. */
export function hitKeys(loaded: LoadedDocs, hits: Hit[]): string[] {
  const keys: string[] = [];
  for (const hit of hits) {
    if (loaded.carriers.has(hit.id)) continue;
    const key = loaded.keyOf.get(hit.id);
    expect(key, `unexpected hit ${hit.id}`).toBeDefined();
    keys.push(key!);
  }
  return keys.sort();
}
