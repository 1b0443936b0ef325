/**
 * Search over what the device holds of a project, with the server's syntax and answer.
 *
 * The documents (documents.ts) are indexed by MiniSearch with the shared `tokenize` of
 * src/lib/search/fold.ts and no further processing, so an indexed term is exactly a token the
 * server indexes. A parsed query (src/lib/search/query.ts) is evaluated leaf by leaf: a term is
 * an exact MiniSearch term (a prefix search for `word*`), a phrase takes the documents holding
 * all its words then keeps those where they are consecutive (evaluate.ts, the reference
 * semantics), `not` and `all` work from the set of every document; and/or combine the sets.
 * Relevance is the sum of MiniSearch's scores of the positive leaves a document matched.
 * Sources, facet filters, facet counts, sort and pages then follow the server's rules.
 *
 * One index per project is kept and rebuilt when the store changed since it was built (the
 * caller's `generation`, bumped on every change of the tables documents are read from).
 */
import type { Dexie } from 'dexie';
import MiniSearch from 'minisearch';
import {
  SEARCH_FACETS,
  SEARCH_PAGE_SIZE,
  type SearchFacetName,
  type SearchFacetValue,
  type SearchParams,
  type SearchResponse,
} from '@/api/search';
import { tokenize } from '@/lib/search/fold';
import { matchesDocument } from '@/lib/search/evaluate';
import type { SearchNode } from '@/lib/search/query';
import { buildProjectDocuments, type SearchDocument } from './documents';

/** Scores of the documents a node matches, by document id. */
type Matches = Map<string, number>;

const identity = (term: string) => term;

export class ProjectIndex {
  readonly index: MiniSearch<SearchDocument>;
  readonly byId: Map<string, SearchDocument>;
  private readonly tokens = new Map<string, string[]>();

  constructor(
    documents: SearchDocument[],
    readonly typeNames: Map<string, string>,
  ) {
    this.byId = new Map(documents.map((document) => [document.id, document]));
    this.index = new MiniSearch<SearchDocument>({
      idField: 'id',
      fields: ['text'],
      storeFields: [],
      tokenize,
      processTerm: identity,
      searchOptions: { tokenize: (text) => [text], processTerm: identity, fuzzy: false },
    });
    this.index.addAll(documents);
  }

  private tokensOf(id: string): string[] {
    let found = this.tokens.get(id);
    if (!found) {
      found = tokenize(this.byId.get(id)?.text ?? '');
      this.tokens.set(id, found);
    }
    return found;
  }

  private all(): Matches {
    return new Map([...this.byId.keys()].map((id) => [id, 0]));
  }

  private lookUp(tokens: string[], prefix: boolean): Matches {
    const found: Matches = new Map();
    const results = this.index.search(
      { combineWith: 'AND', queries: tokens },
      { prefix, combineWith: 'AND' },
    );
    for (const result of results) found.set(String(result.id), result.score);
    return found;
  }

  /** The documents a query tree matches, each with its relevance. */
  evaluate(node: SearchNode): Matches {
    switch (node.kind) {
      case 'all':
        return this.all();
      case 'none':
        return new Map();
      case 'term':
        return this.lookUp([node.token], node.prefix);
      case 'phrase': {
        const found: Matches = new Map();
        for (const [id, score] of this.lookUp(node.tokens, false)) {
          if (matchesDocument(node, this.tokensOf(id))) found.set(id, score);
        }
        return found;
      }
      case 'and': {
        let found: Matches | null = null;
        for (const child of node.children) {
          const matches = this.evaluate(child);
          if (found === null) {
            found = matches;
            continue;
          }
          const both: Matches = new Map();
          for (const [id, score] of found) {
            const other = matches.get(id);
            if (other !== undefined) both.set(id, score + other);
          }
          found = both;
          if (found.size === 0) break;
        }
        return found ?? new Map();
      }
      case 'or': {
        const found: Matches = new Map();
        for (const child of node.children) {
          for (const [id, score] of this.evaluate(child)) {
            found.set(id, (found.get(id) ?? 0) + score);
          }
        }
        return found;
      }
      case 'not': {
        const excluded = this.evaluate(node.child);
        const found: Matches = new Map();
        for (const id of this.byId.keys()) if (!excluded.has(id)) found.set(id, 0);
        return found;
      }
    }
  }

  /** The server's answer for a parsed query and the rest of the search's parameters. */
  answer(tree: SearchNode, params: SearchParams): SearchResponse {
    const sources = new Set(params.sources);
    const matches = this.evaluate(tree);
    const kept: { document: SearchDocument; score: number }[] = [];
    // What the facets are counted on: each facet with every filter but its own, as the server.
    const faceted: { document: SearchDocument; failing: SearchFacetName[] }[] = [];
    for (const [id, score] of matches) {
      const document = this.byId.get(id)!;
      if (sources.size > 0 && !sources.has(document.source)) continue;
      const failing = failingFacets(document, params.facets);
      if (failing.length <= 1) faceted.push({ document, failing });
      if (failing.length === 0) kept.push({ document, score });
    }

    const byName = (a: { document: SearchDocument }, b: { document: SearchDocument }): number =>
      compareText(a.document.elementName, b.document.elementName) ||
      compareText(a.document.elementId, b.document.elementId) ||
      compareText(a.document.id, b.document.id);
    kept.sort(
      params.sort === 'element_name' ? byName : (a, b) => b.score - a.score || byName(a, b),
    );

    const number = Math.max(1, Math.floor(params.page) || 1);
    const start = (number - 1) * SEARCH_PAGE_SIZE;
    const page = kept.slice(start, start + SEARCH_PAGE_SIZE);
    return {
      count: kept.length,
      number,
      previous: number > 1 ? `?page=${number - 1}` : null,
      next: start + SEARCH_PAGE_SIZE < kept.length ? `?page=${number + 1}` : null,
      results: page.map(({ document }) => document.hit),
      facets: this.facets(faceted),
    };
  }

  private facets(
    documents: { document: SearchDocument; failing: SearchFacetName[] }[],
  ): Record<SearchFacetName, SearchFacetValue[]> {
    const counts = Object.fromEntries(
      SEARCH_FACETS.map((facet) => [facet, new Map<string, SearchFacetValue>()]),
    ) as Record<SearchFacetName, Map<string, SearchFacetValue>>;
    for (const { document, failing } of documents) {
      for (const facet of SEARCH_FACETS) {
        if (failing.length > 0 && failing[0] !== facet) continue;
        const value = facetValue(document, facet);
        if (value === null) continue;
        const known = counts[facet].get(value);
        if (known) known.count += 1;
        else counts[facet].set(value, { value, label: this.label(document, facet), count: 1 });
      }
    }
    return Object.fromEntries(
      SEARCH_FACETS.map((facet) => [
        facet,
        [...counts[facet].values()].sort(
          (a, b) => b.count - a.count || compareText(a.value, b.value),
        ),
      ]),
    ) as Record<SearchFacetName, SearchFacetValue[]>;
  }

  private label(document: SearchDocument, facet: SearchFacetName): string {
    if (facet === 'element_type')
      return this.typeNames.get(document.elementType) ?? document.elementType;
    if (facet === 'worker_run') return document.workerRun?.summary ?? 'Manual';
    return facetValue(document, facet) ?? '';
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A document's value for a facet; null where the facet says nothing of it. */
export function facetValue(document: SearchDocument, facet: SearchFacetName): string | null {
  switch (facet) {
    case 'element_type':
      return document.elementType;
    case 'worker_run':
      return document.workerRun?.id ?? 'manual';
    case 'classification_name':
      return document.classificationName;
    case 'metadata_name':
      return document.metadataName;
    case 'entity_type':
      return document.entityType;
  }
}

/** The facets whose filter a document fails (none: it is a hit). */
function failingFacets(
  document: SearchDocument,
  facets: SearchParams['facets'],
): SearchFacetName[] {
  return SEARCH_FACETS.filter((facet) => {
    const wanted = facets[facet];
    if (!wanted || wanted.length === 0) return false;
    const value = facetValue(document, facet);
    return value === null || !wanted.includes(value);
  });
}

/**
 * The indexes of one database's projects, each rebuilt when asked with a newer generation than
 * the one it was built at. Searches arriving while an index builds wait for that build.
 */
export class DeviceSearchEngine {
  private readonly built = new Map<string, { generation: number; index: Promise<ProjectIndex> }>();
  /** How long the last build took, in milliseconds, and how many documents it indexed. */
  lastBuild: { ms: number; documents: number } | null = null;

  constructor(
    private readonly open: () => Promise<Dexie>,
    private readonly close?: (db: Dexie) => void,
  ) {}

  private indexOf(corpusId: string, generation: number): Promise<ProjectIndex> {
    const known = this.built.get(corpusId);
    if (known && known.generation === generation) return known.index;
    const index = this.build(corpusId);
    this.built.set(corpusId, { generation, index });
    // A failed build is not kept: the next search tries again.
    index.catch(() => {
      if (this.built.get(corpusId)?.index === index) this.built.delete(corpusId);
    });
    return index;
  }

  private async build(corpusId: string): Promise<ProjectIndex> {
    const started = performance.now();
    const db = await this.open();
    try {
      const { documents, typeNames } = await buildProjectDocuments(db, corpusId);
      const index = new ProjectIndex(documents, typeNames);
      this.lastBuild = { ms: performance.now() - started, documents: documents.length };
      return index;
    } finally {
      this.close?.(db);
    }
  }

  async search(
    corpusId: string,
    tree: SearchNode,
    params: SearchParams,
    generation: number,
  ): Promise<SearchResponse> {
    const index = await this.indexOf(corpusId, generation);
    return index.answer(tree, params);
  }
}
