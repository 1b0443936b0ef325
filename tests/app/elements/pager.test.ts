import { describe, expect, it } from 'vitest';
import type { Conditional, Page } from '@/api/client';
import type { ElementListItem } from '@/api/types';
import {
  LOAD_ALL_PAGE_SIZE,
  MAX_PAGES_PER_BATCH,
  createChildrenPager,
  type FetchChildrenPage,
} from '@/features/elements/children/pager';
import { elementWith } from '../support/fixtures';

function child(index: number): ElementListItem {
  return elementWith({
    id: `child-${index}`,
    type: 'text_line',
    name: `Line ${index}`,
    corpus: { id: 'corpus' },
  });
}

/** A parent with `total` children behind a paged, conditional endpoint. */
function endpoint(total: number) {
  const requests: { page: number; pageSize: number; since: string | null }[] = [];
  const fetchPage: FetchChildrenPage = async (page, pageSize, since) => {
    requests.push({ page, pageSize, since });
    if (since) return { notModified: true, data: null, lastModified: since };
    const start = (page - 1) * pageSize;
    const data: Page<ElementListItem> = {
      count: total,
      next: start + pageSize < total ? `?page=${page + 1}` : null,
      previous: page > 1 ? `?page=${page - 1}` : null,
      results: Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) =>
        child(start + i + 1),
      ),
    };
    const answer: Conditional<Page<ElementListItem>> = {
      notModified: false,
      data,
      lastModified: 'Sat, 01 Jun 2024 10:00:00 GMT',
    };
    return answer;
  };
  return { fetchPage, requests };
}

describe('children paging', () => {
  it('fetches at most 10 pages per "Load all" batch, and the rest on the next one', async () => {
    // 12.5 pages of the largest size.
    const server = endpoint(LOAD_ALL_PAGE_SIZE * 12 + 500);
    const pager = createChildrenPager({
      parent: { id: 'p', name: 'Register' },
      fetchPage: server.fetchPage,
    });
    await pager.start();
    expect(pager.store.get().items).toHaveLength(20);

    await pager.loadAll();
    const firstBatch = server.requests.slice(1);
    expect(firstBatch).toHaveLength(MAX_PAGES_PER_BATCH);
    expect(firstBatch.map((r) => r.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(firstBatch.every((r) => r.pageSize === LOAD_ALL_PAGE_SIZE)).toBe(true);
    expect(pager.store.get().items).toHaveLength(10_000);
    expect(pager.store.get().nextPage).toBe(11);

    await pager.loadAll();
    const secondBatch = server.requests.slice(1 + MAX_PAGES_PER_BATCH);
    // Pages 11 to 13, then the conditional check of the first page.
    expect(secondBatch.map((r) => [r.page, r.since])).toEqual([
      [11, null],
      [12, null],
      [13, null],
      [1, 'Sat, 01 Jun 2024 10:00:00 GMT'],
    ]);
    expect(pager.store.get().items).toHaveLength(12_500);
    expect(pager.store.get().items[12_499]!.name).toBe('Line 12500');
    expect(pager.store.get().nextPage).toBeNull();
  });

  it('ignores a second click while a page is on its way', async () => {
    const server = endpoint(100);
    const pager = createChildrenPager({
      parent: { id: 'p', name: 'Register' },
      fetchPage: server.fetchPage,
    });
    await pager.start();
    await Promise.all([pager.loadMore(), pager.loadMore()]);
    expect(server.requests.map((r) => r.page)).toEqual([1, 2]);
    expect(pager.store.get().items).toHaveLength(40);
  });
});
