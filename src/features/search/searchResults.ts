/**
 * A page of search results: from the server while it answers, else from what this device
 * holds of the project (offline packs and pages opened before), searched in the browser.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { searchCorpus, type SearchParams, type SearchResponse } from '@/api/search';
import { tryNetwork } from '@/offline/elementReads';
import { connectivity } from '@/offline/runtime';

export interface SearchAnswer {
  response: SearchResponse;
  /** The results come from this device, not the server. */
  fromDevice: boolean;
}

/** Folia's own words, above results found on the device. */
export const FROM_DEVICE =
  'These results come from this device: what was taken offline or opened before.';

export const searchKeys = {
  all: ['search'] as const,
  results: (corpusId: string, params: SearchParams, where: 'server' | 'device') =>
    [...searchKeys.all, corpusId, where, params] as const,
};

async function searchDevice(corpusId: string, params: SearchParams): Promise<SearchAnswer> {
  // Loaded when first needed: the in-browser index stays out of the page's own code.
  const { searchOnDevice } = await import('@/offline/search/client');
  return { response: await searchOnDevice(corpusId, params), fromDevice: true };
}

export async function runSearch(
  corpusId: string,
  params: SearchParams,
  online: boolean,
): Promise<SearchAnswer> {
  const answer = await tryNetwork(
    { online, onUnreachable: () => connectivity.reportUnreachable() },
    () => searchCorpus(corpusId, params),
  );
  return answer ? { response: answer, fromDevice: false } : searchDevice(corpusId, params);
}

/**
 * Keyed by where the search runs too: when the network returns, the same search is asked of
 * the server again rather than showing the device's answer.
 */
export function searchResultsQuery(corpusId: string, params: SearchParams, online: boolean) {
  return queryOptions({
    queryKey: searchKeys.results(corpusId, params, online ? 'server' : 'device'),
    queryFn: () => runSearch(corpusId, params, online),
    // Runs offline too: the device answers then.
    networkMode: 'always',
    placeholderData: keepPreviousData,
    // Coming back to a search after correcting a line asks again: the index follows every
    // edit, and the app's 30 s default would show the text as it was before.
    staleTime: 0,
  });
}
