import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createElements } from '../../server/services/elements/create';
import {
  DELETE_ELEMENTS_JOB,
  deletionIds,
  type RootsQuery,
} from '../../server/services/elements/delete';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
import { UNKNOWN_ID, denied, validation } from './expectedErrors';
import {
  expectTopLevelConsistent,
  elementCount,
  insertElements,
  names,
  typeIds,
} from './elementsFixtures';

/** The tree every test starts from, in a fresh project. */
const TREE = [
  { name: 'Root', type: 'folder' },
  { name: 'X', type: 'page', parent: 'Root' },
  { name: 'Y', type: 'page', parent: 'Root' },
  { name: 'x1', type: 'text_line', parent: 'X' },
  { name: 'x2', type: 'text_line', parent: 'X' },
  { name: 'y1', type: 'text_line', parent: 'Y' },
  { name: 'Other', type: 'folder' },
  { name: 'Shared', type: 'paragraph', parent: 'X' },
  { name: 's1', type: 'text_line', parent: 'Shared' },
  { name: 'Diamond', type: 'paragraph', parent: 'X' },
];

async function addLink(app: FastifyInstance, parent: string, child: string, position = 99) {
  await app.db
    .insertInto('element_links')
    .values({ parent_id: parent, child_id: child, position, created: new Date().toISOString() })
    .execute();
}

async function remaining(app: FastifyInstance, corpusId: string): Promise<string[]> {
  const rows = await app.db
    .selectFrom('elements')
    .select('name')
    .where('corpus_id', '=', corpusId)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

async function addPages(app: FastifyInstance, corpusId: string, parentId: string, count: number) {
  const types = await typeIds(app, corpusId);
  await app.db.transaction().execute((trx) =>
    createElements(
      trx,
      Array.from({ length: count }, (_, i) => ({
        corpusId,
        typeId: types.page!,
        name: `bulk ${String(i).padStart(3, '0')}`,
        parentId,
      })),
    ),
  );
}

describeEachDialect('element deletion', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let ids: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    actors = await makeActors(t().app);
  });

  beforeEach(async () => {
    const { app } = t();
    corpusId = await makeCorpus(app, actors, { name: `Deletions ${randomUUID().slice(0, 4)}` });
    ids = await insertElements(app, corpusId, TREE);
    // Shared is also held by Other; Diamond is held by both X and Y.
    await addLink(app, ids.Other!, ids.Shared!);
    await addLink(app, ids.Y!, ids.Diamond!);
  });

  afterEach(async () => {
    // Whatever a test deleted, the children left behind know whether they still have a parent.
    await expectTopLevelConsistent(t().app);
  });

  describe('deletionIds', () => {
    const roots = (...names: string[]): RootsQuery =>
      t()
        .app.db.selectFrom('elements')
        .select('elements.id')
        .where(
          'elements.id',
          'in',
          names.map((name) => ids[name]!),
        );
    const namesOf = (found: string[]) =>
      found.map((id) => Object.keys(ids).find((name) => ids[name] === id)).sort();

    it('takes the descendants no other parent holds', async () => {
      expect(namesOf(await deletionIds(t().app.db, roots('Root'), true))).toEqual([
        'Diamond',
        'Root',
        'X',
        'Y',
        'x1',
        'x2',
        'y1',
      ]);
    });

    it('keeps an element held by a parent that stays, and what it holds', async () => {
      expect(namesOf(await deletionIds(t().app.db, roots('X'), true))).toEqual(['X', 'x1', 'x2']);
      expect(namesOf(await deletionIds(t().app.db, roots('X', 'Y'), true))).toEqual([
        'Diamond',
        'X',
        'Y',
        'x1',
        'x2',
        'y1',
      ]);
      expect(namesOf(await deletionIds(t().app.db, roots('X', 'Other'), true))).toEqual([
        'Other',
        'Shared',
        'X',
        's1',
        'x1',
        'x2',
      ]);
    });

    it('lists each element after everything of its own it deletes, so a stop between chunks leaves no orphan', async () => {
      const found = await deletionIds(t().app.db, roots('Root', 'Other'), true);
      const place = (name: string) => found.indexOf(ids[name]!);
      for (const [parent, child] of [
        ['Root', 'X'],
        ['Root', 'Y'],
        ['X', 'x1'],
        ['X', 'x2'],
        ['X', 'Shared'],
        ['X', 'Diamond'],
        ['Y', 'Diamond'],
        ['Y', 'y1'],
        ['Shared', 's1'],
        ['Other', 'Shared'],
      ]) {
        expect(place(child!), `${child} before ${parent}`).toBeLessThan(place(parent!));
      }
    });

    it('takes the roots only without children', async () => {
      expect(namesOf(await deletionIds(t().app.db, roots('Root', 'X'), false))).toEqual([
        'Root',
        'X',
      ]);
    });
  });

  describe('DELETE /element/{id}/', () => {
    it('deletes the element and the descendants only it holds', async () => {
      await t()
        .app.db.insertInto('transcriptions')
        .values({
          id: randomUUID(),
          element_id: ids.x1!,
          text: 'gone',
          orientation: 'horizontal-lr',
          confidence: null,
          worker_run_id: null,
          creator_id: null,
          created: '2024-01-01T00:00:00.000Z',
          updated: '2024-01-01T00:00:00.000Z',
        })
        .execute();
      const response = await as('owner').delete(`element/${ids.Root}/`);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await remaining(t().app, corpusId)).toEqual(['Other', 'Shared', 's1']);
      const transcriptions = await t()
        .app.db.selectFrom('transcriptions')
        .select('id')
        .where('element_id', '=', ids.x1!)
        .execute();
      expect(transcriptions).toEqual([]);
      expect(names((await as('guest').get(`elements/${ids.Other}/children/`)).json())).toEqual([
        'Shared',
      ]);
    });

    it('detaches the children with delete_children=false', async () => {
      const response = await as('owner').delete(`element/${ids.Root}/?delete_children=false`);
      expect(response.statusCode).toBe(204);
      expect(await elementCount(t().app, corpusId)).toBe(TREE.length - 1);
      const top = await as('guest').get(`corpus/${corpusId}/elements/?top_level=true`);
      expect(names(top.json())).toEqual(['Other', 'X', 'Y']);
    });

    it('schedules a job above 100 elements and answers 202', async () => {
      const { app } = t();
      await addPages(app, corpusId, ids.Y!, 100);
      const response = await as('owner').delete(`element/${ids.Root}/`);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({});
      const job = await app.db
        .selectFrom('jobs')
        .selectAll()
        .where('corpus_id', '=', corpusId)
        .executeTakeFirstOrThrow();
      expect(job).toMatchObject({
        kind: DELETE_ELEMENTS_JOB,
        status: 'queued',
        user_id: actors.owner.id,
        description: 'Deleting element Root and its children',
      });
      expect(await elementCount(app, corpusId)).toBe(TREE.length + 100);
      await app.jobs.drain();
      expect(await remaining(app, corpusId)).toEqual(['Other', 'Shared', 's1']);
      const done = await app.db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow();
      expect(done.status).toBe('processed');
      expect(JSON.parse(done.result!)).toEqual({ deleted: 107, total: 107 });
    });

    it('needs a verified admin', async () => {
      const admin = denied('You do not have admin access to this project.');
      expect((await as('contributor').delete(`element/${ids.X}/`)).json()).toEqual(admin);
      expect((await as('guest').delete(`element/${ids.X}/`)).statusCode).toBe(403);
      const unverified = await as('unverifiedAdmin').delete(`element/${ids.X}/`);
      expect(unverified.json()).toEqual(
        denied('You must verify your email address to perform this action.'),
      );
      expect((await as('outsider').delete(`element/${ids.X}/`)).statusCode).toBe(404);
      expect((await as('anonymous').delete(`element/${ids.X}/`)).statusCode).toBe(401);
      expect((await as('owner').delete(`element/${UNKNOWN_ID}/`)).statusCode).toBe(404);
      const bad = await as('owner').delete(`element/${ids.X}/?delete_children=maybe`);
      expect(bad.json()).toEqual(validation('delete_children', 'Only Yes and No are allowed'));
      expect(await elementCount(t().app, corpusId)).toBe(TREE.length);
      expect((await as('siteAdmin').delete(`element/${ids.x1}/`)).statusCode).toBe(204);
    });
  });

  describe('DELETE /corpus/{id}/elements/', () => {
    it('deletes the filtered elements and their descendants at once when few', async () => {
      const response = await as('owner').delete(`corpus/${corpusId}/elements/?type=page`);
      expect(response.statusCode).toBe(204);
      expect(await remaining(t().app, corpusId)).toEqual(['Other', 'Root', 'Shared', 's1']);
    });

    it('schedules the deletion of many elements', async () => {
      const { app } = t();
      await addPages(app, corpusId, ids.Other!, 101);
      const response = await as('siteAdmin').delete(`corpus/${corpusId}/elements/?name=bulk`);
      expect(response.statusCode).toBe(202);
      const job = await app.db
        .selectFrom('jobs')
        .selectAll()
        .where('corpus_id', '=', corpusId)
        .executeTakeFirstOrThrow();
      expect(job.description).toMatch(/^Deleting 101 elements of project Deletions/);
      expect(JSON.parse(job.payload)).toEqual({
        target: { kind: 'corpus', corpusId, query: { name: 'bulk' } },
        deleteChildren: true,
      });
      await app.jobs.drain();
      expect(await elementCount(app, corpusId)).toBe(TREE.length);
    });

    it('refuses bad filters and callers without admin rights, deleting nothing', async () => {
      const bad = await as('owner').delete(`corpus/${corpusId}/elements/?type=nope`);
      expect(bad.json()).toEqual(validation('type', "Type 'nope' not found."));
      expect((await as('contributor').delete(`corpus/${corpusId}/elements/`)).statusCode).toBe(403);
      expect((await as('unverifiedAdmin').delete(`corpus/${corpusId}/elements/`)).statusCode).toBe(
        403,
      );
      expect((await as('outsider').delete(`corpus/${corpusId}/elements/`)).statusCode).toBe(404);
      expect(await elementCount(t().app, corpusId)).toBe(TREE.length);
    });
  });

  describe('DELETE /elements/{id}/children/', () => {
    it('deletes the filtered children, recursively on request', async () => {
      const direct = await as('owner').delete(`elements/${ids.X}/children/?type=text_line`);
      expect(direct.statusCode).toBe(204);
      expect(await remaining(t().app, corpusId)).not.toContain('x1');
      const deep = await as('owner').delete(
        `elements/${ids.Root}/children/?recursive=true&type=text_line`,
      );
      expect(deep.statusCode).toBe(204);
      expect(await remaining(t().app, corpusId)).toEqual([
        'Diamond',
        'Other',
        'Root',
        'Shared',
        'X',
        'Y',
      ]);
      expect((await as('contributor').delete(`elements/${ids.X}/children/`)).statusCode).toBe(403);
    });
  });
});
