/**
 * Element lists paged by following `next`: its cursor continues after the previous page's last
 * element (pagination.ts, KeysetSource), which must give exactly the pages that page numbers
 * give, in every order, and skip nothing when an element of a page already read goes away.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors } from './actors';
import { insertElements, makeImage } from './elementsFixtures';

interface ListPage {
  count: number;
  number: number;
  next: string | null;
  previous: string | null;
  results: { id: string; name: string }[];
}

describeEachDialect('element lists followed by their next links', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let ids: Record<string, string>;
  const get = async (path: string): Promise<ListPage> => {
    const response = await clientFor(t().app, actors, 'guest').get(path);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  /** The path of an absolute next link, under /api/v1/ as the client's get() wants it. */
  const pathOf = (link: string) => {
    const url = new URL(link);
    return `${url.pathname.replace(/^\/api\/v1\//, '')}${url.search}`;
  };

  /** Every page reached by following next from `path`. */
  async function follow(path: string): Promise<ListPage[]> {
    const pages = [await get(path)];
    for (let next = pages[0]!.next; next; next = pages[pages.length - 1]!.next) {
      pages.push(await get(pathOf(next)));
    }
    return pages;
  }

  /** The same pages asked for by number, with no cursor. */
  async function byNumber(path: string, count: number): Promise<ListPage[]> {
    const pages = [];
    for (let n = 1; n <= count; n += 1) pages.push(await get(`${path}&page=${n}`));
    return pages;
  }

  const ids_ = (pages: ListPage[]) => pages.map((page) => page.results.map((e) => e.id));

  beforeAll(async () => {
    const { app } = t();
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Cursors' });
    const image = await makeImage(app, corpusId, 1000, 1000);
    ids = await insertElements(app, corpusId, [{ name: 'Register', type: 'folder' }]);
    // Names that repeat, so the id must break ties for a page to end where the next begins.
    for (let i = 0; i < 14; i += 1) {
      const name = `folio ${String(i % 5).padStart(2, '0')}`;
      const page = (
        await insertElements(app, corpusId, [
          { name, type: 'page', parent: ids.Register!, image: image.id },
        ])
      )[name]!;
      await insertElements(app, corpusId, [
        { name: `line ${i}a`, type: 'text_line', parent: page, image: image.id },
        { name: `line ${i}b`, type: 'text_line', parent: page, image: image.id },
      ]);
    }
  });

  it('gives the pages that page numbers give, in every order', async () => {
    const register = ids.Register!;
    const lists = [
      `corpus/${corpusId}/elements/?page_size=4`,
      `corpus/${corpusId}/elements/?page_size=4&order_direction=desc`,
      `corpus/${corpusId}/elements/?page_size=5&order=created`,
      `corpus/${corpusId}/elements/?page_size=3&type=page&order=created&order_direction=desc`,
      `elements/${register}/children/?page_size=4`,
      `elements/${register}/children/?page_size=4&order_direction=desc`,
      `elements/${register}/children/?page_size=6&recursive=true`,
      `elements/${register}/children/?page_size=6&recursive=true&order_direction=desc`,
    ];
    for (const path of lists) {
      const followed = await follow(path);
      expect(followed.length, path).toBeGreaterThan(2);
      expect(ids_(followed), path).toEqual(ids_(await byNumber(path, followed.length)));
      const all = followed.flatMap((page) => page.results.map((e) => e.id));
      expect(new Set(all).size, path).toBe(followed[0]!.count);
      for (const page of followed.slice(0, -1)) expect(page.next, path).toMatch(/[?&]cursor=/);
      for (const page of followed.slice(1)) expect(page.previous, path).not.toMatch(/cursor=/);
    }
  });

  it('ignores a cursor that does not continue the page before, or cannot be read', async () => {
    const path = `corpus/${corpusId}/elements/?page_size=4`;
    const [first, second] = await follow(path);
    const cursor = new URL(first!.next!).searchParams.get('cursor')!;
    const third = await get(`${path}&page=3`);
    expect(ids_([await get(`${path}&page=3&cursor=${cursor}`)])).toEqual(ids_([third]));
    expect(ids_([await get(`${path}&page=2&cursor=not-a-cursor`)])).toEqual(ids_([second!]));
    const forged = Buffer.from(JSON.stringify([1, { a: 1 }, 'x'])).toString('base64url');
    expect(ids_([await get(`${path}&page=2&cursor=${forged}`)])).toEqual(ids_([second!]));
  });

  it('skips nothing when an element of a page already read is deleted', async () => {
    const path = `elements/${ids.Register!}/children/?page_size=4`;
    const first = await get(path);
    const expected = (await get(`${path}&page=2`)).results.map((e) => e.id);
    await t()
      .app.db.deleteFrom('element_links')
      .where('child_id', '=', first.results[0]!.id)
      .execute();
    const second = await get(pathOf(first.next!));
    // By number, page 2 would now start one element later and the first of these be lost.
    expect(second.results.map((e) => e.id)).toEqual(expected);
  });

  it('counts once: later pages keep the first page’s count and still reach rows added since', async () => {
    const path = `corpus/${corpusId}/elements/?type=page&page_size=5`;
    const first = await get(path);
    expect(first.count).toBe(14);
    await insertElements(t().app, corpusId, [{ name: 'zz late folio', type: 'page' }]);
    const pages = [first];
    for (let next = first.next; next; next = pages[pages.length - 1]!.next) {
      pages.push(await get(pathOf(next)));
    }
    expect(pages.map((page) => page.count)).toEqual([14, 14, 15]);
    expect(pages[2]!.results.map((e) => e.name)).toContain('zz late folio');
    // Asked for by number, the page counts again.
    expect((await get(`${path}&page=3`)).count).toBe(15);
  });
});
