/**
 * A bulk move of the selection whose server is killed (SIGKILL, a real process) in the middle:
 * 10,000 selected pages of 4 lines each (50,000 elements moved), some pages with two parents.
 * Whatever moment the kill lands on, each page has exactly one consistent set of parents (all
 * its old ones, or the new folder alone), its lines stay under it, the job's checkpoint names
 * exactly the pages moved, and after a restart the job resumes to the end without moving any
 * page twice. A started move stopped by its owner ends the same way: consistent, in error.
 */
import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createElements } from '../../server/services/elements/create';
import { Client, createTestUser, describeEachDialect } from './harness';
import { killChildServer, startChildServer, until, type ChildServer } from './childProcess';
import { expectTopLevelConsistent, insertElements, typeIds } from './elementsFixtures';

const PAGES = 10_000;
const LINES_PER_PAGE = 4;
/** Pages that also hang from a second folder. */
const TWICE = 2_000;

async function jobById(app: FastifyInstance, id: string) {
  return app.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Each page's parents, by folder name, joined: "From", "Also+From" or "To". */
async function parentSets(app: FastifyInstance, corpusId: string, folders: Record<string, string>) {
  const byId = new Map(Object.entries(folders).map(([name, id]) => [id, name]));
  const rows = await app.db
    .selectFrom('elements')
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .leftJoin('element_links', 'element_links.child_id', 'elements.id')
    .select(['elements.id as id', 'element_links.parent_id as parent'])
    .where('elements.corpus_id', '=', corpusId)
    .where('element_types.slug', '=', 'page')
    .execute();
  const sets = new Map<string, string[]>();
  for (const row of rows) {
    const list = sets.get(row.id) ?? [];
    if (row.parent) list.push(byId.get(row.parent) ?? 'elsewhere');
    sets.set(row.id, list);
  }
  return new Map([...sets].map(([id, list]) => [id, list.sort().join('+')]));
}

/** How many lines hang from a page, and from nothing else. */
async function linesUnderPages(app: FastifyInstance, corpusId: string): Promise<number> {
  const row = await app.db
    .selectFrom('element_links')
    .innerJoin('elements as child', 'child.id', 'element_links.child_id')
    .innerJoin('element_types', 'element_types.id', 'child.type_id')
    .innerJoin('elements as parent', 'parent.id', 'element_links.parent_id')
    .innerJoin('element_types as parent_type', 'parent_type.id', 'parent.type_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('child.corpus_id', '=', corpusId)
    .where('element_types.slug', '=', 'text_line')
    .where('parent_type.slug', '=', 'page')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The positions of a folder's children: distinct, so no page was appended twice. */
async function positionsUnder(app: FastifyInstance, folderId: string) {
  const rows = await app.db
    .selectFrom('element_links')
    .select('position')
    .where('parent_id', '=', folderId)
    .execute();
  return { count: rows.length, distinct: new Set(rows.map((row) => row.position)).size };
}

describeEachDialect('a selection move when its server is killed', ({ t }) => {
  it('leaves every page with one consistent set of parents, then resumes to the end', async () => {
    const { app, config } = t();
    const owner = await createTestUser(app);
    const created = await new Client(app, owner.token).post('corpus/', { name: 'Killed move' });
    const corpusId = created.json().id as string;
    const folders = await insertElements(app, corpusId, [
      { name: 'From', type: 'folder' },
      { name: 'Also', type: 'folder' },
      { name: 'To', type: 'folder' },
    ]);
    const types = await typeIds(app, corpusId);
    const pages = await app.db.transaction().execute((trx) =>
      createElements(
        trx,
        Array.from({ length: PAGES }, (_, i) => ({
          corpusId,
          typeId: types.page!,
          name: `page ${i}`,
          parentId: folders.From!,
        })),
      ),
    );
    await app.db.transaction().execute(async (trx) => {
      await createElements(
        trx,
        pages.flatMap((pageId, i) =>
          Array.from({ length: LINES_PER_PAGE }, (_, j) => ({
            corpusId,
            typeId: types.text_line!,
            name: `line ${i}.${j}`,
            parentId: pageId,
          })),
        ),
      );
      const now = new Date().toISOString();
      for (let i = 0; i < PAGES; i += 500) {
        await trx
          .insertInto('selections')
          .values(
            pages
              .slice(i, i + 500)
              .map((id) => ({ user_id: owner.id, element_id: id, created: now })),
          )
          .execute();
        const twice = pages.slice(i, Math.min(i + 500, TWICE));
        if (twice.length) {
          await trx
            .insertInto('element_links')
            .values(
              twice.map((id, k) => ({
                parent_id: folders.Also!,
                child_id: id,
                position: i + k,
                created: now,
              })),
            )
            .execute();
        }
      }
    });
    const original = await parentSets(app, corpusId, folders);
    expect([...original.values()].filter((set) => set === 'Also+From')).toHaveLength(TWICE);

    const request = (server: ChildServer, method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/api/v1/${path}`, {
        method,
        headers: {
          authorization: `Token ${owner.token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });

    const first = await startChildServer(config);
    let jobId: string;
    try {
      const response = await request(first, 'POST', 'elements/selection/move/', {
        corpus_id: corpusId,
        destination: folders.To,
      });
      expect(response.status).toBe(204);
      const [listed] = (await (await request(first, 'GET', 'jobs/')).json()) as { id: string }[];
      jobId = listed!.id;
      // Killed as soon as the first batches have committed.
      await until('the move to be under way', async () => {
        const job = await jobById(app, jobId);
        return job.status === 'started' && job.progress > 0 ? job : null;
      });
    } finally {
      await killChildServer(first);
    }

    const cut = await jobById(app, jobId);
    expect(cut.status).toBe('started');
    const checkpoint = JSON.parse(cut.result!) as { done: number; changed: number };
    expect(checkpoint.done).toBeGreaterThan(0);
    expect(checkpoint.done).toBeLessThan(PAGES);
    const payload = JSON.parse(cut.payload) as { ids: string[] };
    const movedIds = new Set(payload.ids.slice(0, checkpoint.done));
    const halfway = await parentSets(app, corpusId, folders);
    const wrong = [...halfway].filter(([id, set]) =>
      movedIds.has(id) ? set !== 'To' : set !== original.get(id),
    );
    expect(wrong).toEqual([]);
    expect(await linesUnderPages(app, corpusId)).toBe(PAGES * LINES_PER_PAGE);
    await expectTopLevelConsistent(app);

    const second = await startChildServer(config);
    try {
      const job = await until('the move to end', async () => {
        const row = await jobById(app, jobId);
        return row.status === 'processed' || row.status === 'error' ? row : null;
      });
      expect(job).toMatchObject({ status: 'processed', error: null, progress: 1, attempts: 2 });
      expect(JSON.parse(job.result!)).toEqual({ done: PAGES, changed: PAGES, skipped: 0 });

      const after = await parentSets(app, corpusId, folders);
      expect([...after.values()].filter((set) => set !== 'To')).toEqual([]);
      expect(await positionsUnder(app, folders.To!)).toEqual({ count: PAGES, distinct: PAGES });
      expect(await linesUnderPages(app, corpusId)).toBe(PAGES * LINES_PER_PAGE);
      await expectTopLevelConsistent(app);

      // Moving them back, stopped by the owner once started: consistent, and in error.
      const back = await request(second, 'POST', 'elements/selection/move/', {
        corpus_id: corpusId,
        destination: folders.From,
      });
      expect(back.status).toBe(204);
      const jobs = (await (await request(second, 'GET', 'jobs/')).json()) as { id: string }[];
      const backId = jobs[0]!.id;
      await until('the move back to be under way', async () => {
        const row = await jobById(app, backId);
        return row.status === 'started' && row.progress > 0 ? row : null;
      });
      expect((await request(second, 'DELETE', `jobs/${backId}/`)).status).toBe(204);
      const stopped = await until('the move back to stop', async () => {
        const row = await jobById(app, backId);
        return row.status === 'error' ? row : null;
      });
      expect(stopped.error).toBe('Stopped by the user');
      const { done } = JSON.parse(stopped.result!) as { done: number };
      expect(done).toBeLessThan(PAGES);
      const sets = [...(await parentSets(app, corpusId, folders)).values()];
      expect(sets.filter((set) => set === 'From')).toHaveLength(done);
      expect(sets.filter((set) => set === 'To')).toHaveLength(PAGES - done);
      await expectTopLevelConsistent(app);
      // A finished job is removed from the list.
      expect((await request(second, 'DELETE', `jobs/${backId}/`)).status).toBe(204);
      const left = (await (await request(second, 'GET', 'jobs/')).json()) as { id: string }[];
      expect(left.map((job) => job.id)).toEqual([jobId]);
    } finally {
      await killChildServer(second);
    }
  }, 300_000);
});
