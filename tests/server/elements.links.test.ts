import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
import { NOT_FOUND, UNKNOWN_ID, denied, invalidPk, validation } from './expectedErrors';
import { expectTopLevelConsistent, insertElements, linkCount, names } from './elementsFixtures';

describeEachDialect('element moves and links', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let ids: Record<string, string>;
  let otherIds: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const move = (source: string, destination: string, role: Role = 'contributor') =>
    as(role).post('element/move/', { source, destination });
  const children = async (id: string) =>
    names((await as('guest').get(`elements/${id}/children/`)).json());
  const parents = async (id: string) =>
    names((await as('guest').get(`elements/${id}/parents/`)).json());

  beforeAll(async () => {
    const { app } = t();
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Moves' });
    const otherId = await makeCorpus(app, actors, { name: 'Other' });
    ids = await insertElements(app, corpusId, [
      { name: 'A', type: 'folder' },
      { name: 'A1', type: 'folder', parent: 'A' },
      { name: 'A1a', type: 'folder', parent: 'A1' },
      { name: 'B', type: 'folder' },
      { name: 'B page', type: 'page', parent: 'B' },
      { name: 'page', type: 'page', parent: 'A' },
      { name: 'C', type: 'folder' },
    ]);
    otherIds = await insertElements(app, otherId, [{ name: 'Foreign', type: 'folder' }]);
  });

  describe('POST /element/move/', () => {
    it('moves an element from all its parents to the end of the destination', async () => {
      expect((await as('owner').post(`element/${ids.page}/parent/${ids.C}/`)).statusCode).toBe(201);
      expect((await parents(ids.page!)).sort()).toEqual(['A', 'C']);
      const response = await move(ids.page!, ids.B!);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ source: ids.page, destination: ids.B });
      expect(await parents(ids.page!)).toEqual(['B']);
      expect(await children(ids.B!)).toEqual(['B page', 'page']);
      expect(await children(ids.A!)).toEqual(['A1']);
      expect(await children(ids.C!)).toEqual([]);
    });

    it.each([
      [
        'the source itself',
        'A',
        'A',
        'destination',
        'The destination cannot be the source or one of its descendants.',
      ],
      [
        'a descendant',
        'A',
        'A1a',
        'destination',
        'The destination cannot be the source or one of its descendants.',
      ],
      ['a page', 'C', 'B page', 'destination', 'The destination must be a folder.'],
      [
        'another project',
        'C',
        'Foreign',
        'destination',
        'The source and destination must be in the same project.',
      ],
    ])('refuses to move into %s', async (_label, source, destination, attr, detail) => {
      const before = await linkCount(t().app);
      const resolve = (name: string) => ids[name] ?? otherIds[name]!;
      const response = await move(resolve(source), resolve(destination), 'siteAdmin');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation(attr, detail));
      expect(await linkCount(t().app)).toBe(before);
    });

    it('refuses unknown ids as bad values and needs write rights on both ends', async () => {
      const unknown = await move(UNKNOWN_ID, ids.B!);
      expect(unknown.json()).toEqual(invalidPk('source', UNKNOWN_ID));
      // The outsider cannot read the project: its elements do not exist for them.
      expect((await move(ids.C!, ids.B!, 'outsider')).json().errors[0].attr).toBe('source');
      expect((await move(ids.C!, ids.B!, 'guest')).json()).toEqual(
        denied('You do not have contributor access to this project.'),
      );
      expect((await move(ids.C!, ids.B!, 'anonymous')).statusCode).toBe(401);
      const badBody = await as('contributor').post('element/move/', { source: 'x' });
      expect(badBody.statusCode).toBe(400);
      expect(badBody.json().errors.map((e: { attr: string }) => e.attr)).toEqual([
        'source',
        'destination',
      ]);
      expect(await children(ids.C!)).toEqual([]);
    });
  });

  describe('POST and DELETE /element/{id}/parent/{parent}/', () => {
    const link = (child: string, parent: string, role: Role = 'contributor') =>
      as(role).post(`element/${ids[child] ?? child}/parent/${ids[parent] ?? parent}/`);
    const unlink = (child: string, parent: string, role: Role = 'contributor') =>
      as(role).delete(`element/${ids[child] ?? child}/parent/${ids[parent] ?? parent}/`);

    it('adds a parent at the end of its children, then removes it', async () => {
      const response = await link('B page', 'A1');
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ child: ids['B page'], parent: ids.A1 });
      expect(await children(ids.A1!)).toEqual(['A1a', 'B page']);
      expect((await parents(ids['B page']!)).sort()).toEqual(['A1', 'B']);
      const removed = await unlink('B page', 'A1');
      expect(removed.statusCode).toBe(204);
      expect(await children(ids.A1!)).toEqual(['A1a']);
      expect(await parents(ids['B page']!)).toEqual(['B']);
    });

    it('makes an element top-level when its last parent is removed', async () => {
      expect((await unlink('A1a', 'A1')).statusCode).toBe(204);
      const top = await as('guest').get(`corpus/${corpusId}/elements/?top_level=true`);
      expect(names(top.json())).toContain('A1a');
      expect((await link('A1a', 'A1')).statusCode).toBe(201);
    });

    it.each([
      ['itself', 'A', 'A', 'The parent cannot be the element itself or one of its descendants.'],
      [
        'its own descendant',
        'A',
        'A1a',
        'The parent cannot be the element itself or one of its descendants.',
      ],
      ['a parent it already has', 'A1', 'A', 'This element is already a child of this parent.'],
      [
        'a parent in another project',
        'C',
        'Foreign',
        'The parent must be in the same project as the element.',
      ],
    ])('refuses to link an element to %s', async (_label, child, parent, detail) => {
      const before = await linkCount(t().app);
      const response = await link(child, otherIds[parent] ?? parent);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { attr: 'parent', detail, code: expect.any(String) },
      ]);
      expect(await linkCount(t().app)).toBe(before);
    });

    it('is 404 for unknown or unreadable ends and missing links, 403 for guests', async () => {
      expect((await link(UNKNOWN_ID, 'A')).json()).toEqual(NOT_FOUND);
      expect((await link('C', UNKNOWN_ID)).json()).toEqual(NOT_FOUND);
      expect((await link('C', 'not-a-uuid')).statusCode).toBe(404);
      expect((await link('C', 'A', 'outsider')).statusCode).toBe(404);
      expect((await link('C', 'A', 'guest')).statusCode).toBe(403);
      expect((await link('C', 'A', 'anonymous')).statusCode).toBe(401);
      expect((await unlink('C', 'A')).json()).toEqual(NOT_FOUND);
      expect((await unlink('A1', 'A', 'guest')).statusCode).toBe(403);
      expect(await children(ids.A!)).toEqual(['A1']);
    });
  });

  it('keeps top_level in step with the links after every move and link', async () => {
    await expectTopLevelConsistent(t().app);
  });
});
