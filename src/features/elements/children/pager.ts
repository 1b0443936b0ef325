/**
 * Paging of one tree node's children (spec 001 §2 "Children tree", §4 "Children pagination"):
 * pages in order, 'Load more' one page at a time, 'Load all' with the largest page size and at
 * most 10 pages per batch. Once the last page is in, one conditional request (If-Modified-Since
 * the first page's Last-Modified) tells whether the list changed while it was paged through; if
 * it did, the list starts over from the fresh first page, since pages fetched at different
 * times can skip or repeat children.
 */
import type { Conditional, Page } from '@/api/client';
import { errorMessage } from '@/api/errors';
import type { ElementListItem } from '@/api/types';
import { createStore, type Store } from '@/lib/store';

/** Children per page in the tree. */
export const TREE_PAGE_SIZE = 20;
/** 'Load all' asks for unlimited pages; the API caps a page at 1,000. */
export const LOAD_ALL_PAGE_SIZE = 1000;
/** Spec 001 §9: a batch fetches at most 10 pages. */
export const MAX_PAGES_PER_BATCH = 10;

export const childrenError = (name: string, id: string) =>
  `An error occurred fetching children of node "${name} - ${id}".`;
export const nextElementsError = (id: string) => `Error fetching next elements for parent "${id}"`;

export interface ChildrenState {
  items: ElementListItem[];
  /** Total number of children, once the first page is in. */
  count: number | null;
  pageSize: number;
  /** Next page to fetch at `pageSize`; null once the last page is in. */
  nextPage: number | null;
  /** Last-Modified of the first page of the current run of pages. */
  lastModified: string | null;
  loading: boolean;
  /** The spec's message of the last failure, until the next attempt. */
  error: string | null;
}

/** Fetches one page; `since` makes it conditional (a 304 comes back as notModified). */
export type FetchChildrenPage = (
  page: number,
  pageSize: number,
  since: string | null,
) => Promise<Conditional<Page<ElementListItem>>>;

export interface ChildrenPager {
  readonly store: Store<ChildrenState>;
  /** First page, unless already loaded (or loading). */
  start(): Promise<void>;
  loadMore(): Promise<void>;
  loadAll(): Promise<void>;
  /** The conditional refetch, for a complete list shown again (node re-expanded). */
  revalidate(): Promise<void>;
}

export interface PagerOptions {
  parent: { id: string; name: string };
  fetchPage: FetchChildrenPage;
  onError?: (message: string, cause: unknown) => void;
}

const hasNextPage = (page: Page<ElementListItem>) => page.next !== null;

export function createChildrenPager({ parent, fetchPage, onError }: PagerOptions): ChildrenPager {
  const store = createStore<ChildrenState>({
    items: [],
    count: null,
    pageSize: TREE_PAGE_SIZE,
    nextPage: 1,
    lastModified: null,
    loading: false,
    error: null,
  });
  let started = false;

  const set = (patch: Partial<ChildrenState>) => store.set((state) => ({ ...state, ...patch }));

  const fail = (message: string, cause: unknown) => {
    // Cut short on purpose (the page went away): nothing failed, nothing to tell.
    if ((cause as Error | null)?.name === 'AbortError') {
      set({ loading: false });
      return;
    }
    set({ loading: false, error: message });
    onError?.(`${message} ${errorMessage(cause)}`.trim(), cause);
  };

  /** Fetches page 1 at `pageSize` and replaces the list with it. */
  async function firstPage(pageSize: number): Promise<boolean> {
    const answer = await fetchPage(1, pageSize, null);
    if (!answer.data) return false;
    set({
      items: answer.data.results,
      count: answer.data.count,
      pageSize,
      nextPage: hasNextPage(answer.data) ? 2 : null,
      lastModified: answer.lastModified,
    });
    return true;
  }

  async function nextPage(): Promise<boolean> {
    const { nextPage: page, pageSize } = store.get();
    if (page === null) return false;
    const answer = await fetchPage(page, pageSize, null);
    if (!answer.data) return false;
    const data = answer.data;
    store.set((state) => {
      // A child moved between pages may come twice; keep its first place.
      const known = new Set(state.items.map((item) => item.id));
      return {
        ...state,
        items: [...state.items, ...data.results.filter((item) => !known.has(item.id))],
        count: data.count,
        nextPage: hasNextPage(data) ? page + 1 : null,
      };
    });
    return true;
  }

  /** After the last page: did the list change since its first page was fetched? */
  async function verify(): Promise<void> {
    const { lastModified, pageSize, nextPage: page } = store.get();
    if (page !== null || !lastModified) return;
    const answer = await fetchPage(1, pageSize, lastModified);
    if (answer.notModified || !answer.data) return;
    set({
      items: answer.data.results,
      count: answer.data.count,
      nextPage: hasNextPage(answer.data) ? 2 : null,
      lastModified: answer.lastModified,
    });
  }

  // One request sequence at a time: a second click while loading would page twice.
  async function run(task: () => Promise<void>, message: string): Promise<void> {
    if (store.get().loading) return;
    set({ loading: true, error: null });
    try {
      await task();
      set({ loading: false });
    } catch (error) {
      fail(message, error);
    }
  }

  function start(): Promise<void> {
    if (started) return Promise.resolve();
    started = true;
    return run(
      async () => {
        if (await firstPage(TREE_PAGE_SIZE)) await verify();
      },
      childrenError(parent.name, parent.id),
    );
  }

  function loadMore(): Promise<void> {
    const { nextPage: page, count } = store.get();
    if (count === null) {
      // The first page never came: try it again.
      started = false;
      return start();
    }
    if (page === null) return Promise.resolve();
    return run(async () => {
      if (await nextPage()) await verify();
    }, nextElementsError(parent.id));
  }

  function loadAll(): Promise<void> {
    const { nextPage: page, count } = store.get();
    if (page === null && count !== null) return Promise.resolve();
    return run(async () => {
      let fetched = 0;
      if (store.get().pageSize !== LOAD_ALL_PAGE_SIZE || store.get().count === null) {
        // Page numbers depend on the page size: bigger pages start again from the top.
        if (!(await firstPage(LOAD_ALL_PAGE_SIZE))) return;
        fetched = 1;
      }
      while (fetched < MAX_PAGES_PER_BATCH && store.get().nextPage !== null) {
        if (!(await nextPage())) return;
        fetched += 1;
      }
      await verify();
    }, nextElementsError(parent.id));
  }

  function revalidate(): Promise<void> {
    const { nextPage: page, count } = store.get();
    if (page !== null || count === null) return Promise.resolve();
    return run(() => verify(), nextElementsError(parent.id));
  }

  return { store, start, loadMore, loadAll, revalidate };
}
