/**
 * The datasets part of an offline pack: the project's datasets, and for every element of the
 * pack the sets it is in with its neighbours there, so the details panel's datasets table and
 * its previous / next links work offline.
 *
 * The API gives an element's sets one element at a time (GET /element/{id}/sets/), and a
 * dataset's elements a page of 500 at a time, in the order neighbours follow (name, then id).
 * Whichever needs fewer requests is used: the datasets' lists when the project's datasets hold
 * fewer elements than 500 per element of the pack, else one request per element, a few at a
 * time. Neighbours read from a list are those the server would give: the elements before and
 * after in the same set, in the same order.
 */
import { api } from '@/api/client';
import {
  fetchCorpusDatasets,
  fetchElementSets,
  type CursorPage,
  type Dataset,
  type DatasetElement,
  type ElementDatasetSet,
} from '@/api/datasets';
import { saveCorpusDatasets, saveManyElementSets } from './datasetStore';
import type { FoliaDatabase } from './db';

export const DATASET_PAGE_SIZE = 500;

export interface PackDatasetsOptions {
  signal?: AbortSignal;
  /** Requests at once, when read element by element. */
  parallel: number;
}

export interface PackDatasetsResult {
  datasets: number;
  /** Requests made for the memberships (not counting the datasets' list). */
  requests: number;
  /** The stored data as JSON, in characters, for the pack's size. */
  bytes: number;
}

/** Requests the datasets' lists would take, every set together. */
function listRequests(datasets: readonly Dataset[]): number {
  return datasets.reduce((sum, dataset) => {
    const size = Object.values(dataset.set_elements).reduce((a, b) => a + b, 0);
    return sum + Math.max(1, Math.ceil(size / DATASET_PAGE_SIZE));
  }, 0);
}

/** Every element of one dataset, in the list's order, by set. */
async function datasetLists(dataset: Dataset, signal?: AbortSignal) {
  const bySet = new Map<string, string[]>();
  let requests = 0;
  let next: string | null = null;
  do {
    const search: string = next
      ? new URL(next, 'http://folia.invalid').search
      : `?page_size=${DATASET_PAGE_SIZE}`;
    const page: CursorPage<DatasetElement> = await api<CursorPage<DatasetElement>>(
      `/datasets/${dataset.id}/elements/${search}`,
      { signal },
    );
    requests += 1;
    for (const row of page.results) {
      const ids = bySet.get(row.set) ?? [];
      ids.push(row.element.id);
      bySet.set(row.set, ids);
    }
    next = page.results.length > 0 ? page.next : null;
  } while (next);
  return { bySet, requests };
}

/** The memberships of the wanted elements, worked out from the datasets' lists. */
async function fromLists(
  datasets: readonly Dataset[],
  wanted: ReadonlySet<string>,
  signal?: AbortSignal,
) {
  const found = new Map<string, ElementDatasetSet[]>([...wanted].map((id) => [id, []]));
  let requests = 0;
  const byName = [...datasets].sort(
    (a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
  for (const dataset of byName) {
    const lists = await datasetLists(dataset, signal);
    requests += lists.requests;
    const sets = [...lists.bySet.keys()].sort((a, b) => a.localeCompare(b));
    for (const set of sets) {
      const ids = lists.bySet.get(set)!;
      ids.forEach((id, i) => {
        if (!wanted.has(id)) return;
        found.get(id)!.push({
          dataset,
          set,
          previous: ids[i - 1] ?? null,
          next: ids[i + 1] ?? null,
        });
      });
    }
  }
  return { found, requests };
}

/** The memberships of the wanted elements, one request each, `parallel` at a time. */
async function oneByOne(wanted: readonly string[], parallel: number, signal?: AbortSignal) {
  const found = new Map<string, ElementDatasetSet[]>();
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      signal?.throwIfAborted();
      const id = wanted[next++]!;
      found.set(id, await fetchElementSets(id, true));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, wanted.length) }, worker));
  return { found, requests: wanted.length };
}

/** Reads and stores the datasets of a pack's project and the sets of each of its elements. */
export async function storePackDatasets(
  db: FoliaDatabase,
  corpusId: string,
  elementIds: readonly string[],
  options: PackDatasetsOptions,
): Promise<PackDatasetsResult> {
  const datasets = await fetchCorpusDatasets(corpusId);
  await saveCorpusDatasets(db, corpusId, datasets);
  const wanted = [...new Set(elementIds)];
  let memberships: { found: Map<string, ElementDatasetSet[]>; requests: number };
  if (datasets.length === 0) {
    memberships = { found: new Map(wanted.map((id) => [id, []])), requests: 0 };
  } else if (listRequests(datasets) <= wanted.length) {
    memberships = await fromLists(datasets, new Set(wanted), options.signal);
  } else {
    memberships = await oneByOne(wanted, options.parallel, options.signal);
  }
  await saveManyElementSets(db, memberships.found);
  return {
    datasets: datasets.length,
    requests: memberships.requests,
    bytes: JSON.stringify(datasets).length + JSON.stringify([...memberships.found]).length,
  };
}
