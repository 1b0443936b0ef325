import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import {
  clientFor,
  makeActors,
  makeActorsAndProjects,
  makeCorpus,
  type Actors,
  type Role,
} from './actors';
import { insertElements, names, typeIds } from './elementsFixtures';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { createElements } from '../../server/services/elements/create';
import {
  SELECTION_ADD_MAX,
  SELECTION_MAX,
  SELECTION_MESSAGES,
} from '../../server/services/selection';

const UNVERIFIED = denied('You must verify your email address to perform this action.');
const DISABLED = denied('The selection feature is disabled on this server.');

/** Every selection call, with a body that would be accepted. */
function everyCall(corpusId: string) {
  return [
    ['GET', 'elements/selection/', undefined],
    ['POST', 'elements/selection/', { ids: [UNKNOWN_ID] }],
    ['DELETE', 'elements/selection/', { id: UNKNOWN_ID }],
    ['DELETE', 'elements/selection/', undefined],
    ['DELETE', `corpus/${corpusId}/selection/`, undefined],
  ] as const;
}

describeEachDialect('the selection', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let priv: Record<string, string>;
  let pub: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);

  async function select(role: Role, ids: string[]) {
    const response = await as(role).post('elements/selection/', { ids });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
  }

  async function listed(role: Role, query = '') {
    const response = await as(role).get(`elements/selection/${query ? `?${query}` : ''}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  async function stored(userId: string): Promise<string[]> {
    const rows = await t()
      .app.db.selectFrom('selections')
      .select('element_id')
      .where('user_id', '=', userId)
      .execute();
    return rows.map((row) => row.element_id).sort();
  }

  beforeAll(async () => {
    const app = t().app;
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app));
    priv = await insertElements(app, privateId, [
      { name: 'folder', type: 'folder' },
      { name: 'b page', type: 'page', parent: 'folder' },
      { name: 'a page', type: 'page', parent: 'folder' },
    ]);
    pub = await insertElements(app, publicId, [{ name: 'public page', type: 'page' }]);
  });

  beforeEach(async () => {
    await t().app.db.deleteFrom('selections').execute();
  });

  describe('adding and listing', () => {
    it('adds elements once each and lists them as the element list shows them', async () => {
      await select('contributor', [priv['b page']!, priv['a page']!.toUpperCase()]);
      await select('contributor', [priv['a page']!, priv['b page']!, priv['a page']!]);
      const body = await listed('contributor');
      expect(body).toMatchObject({ count: 2, number: 1, next: null, previous: null });
      expect(names(body)).toEqual(['a page', 'b page']);
      const list = await as('contributor').get(`corpus/${privateId}/elements/?type=page`);
      expect(body.results).toEqual(list.json().results);
    });

    it('groups the elements by project and filters one project', async () => {
      await select('contributor', [pub['public page']!, priv.folder!, priv['a page']!]);
      expect(names(await listed('contributor'))).toEqual(['a page', 'folder', 'public page']);
      const withCorpus = await listed('contributor', 'with_corpus=true');
      expect(withCorpus.results.map((e: { corpus: { name: string } }) => e.corpus.name)).toEqual([
        'Private',
        'Private',
        'Public',
      ]);
      expect(names(await listed('contributor', `corpus=${publicId}`))).toEqual(['public page']);
      expect(names(await listed('contributor', `corpus=${privateId.toUpperCase()}`))).toEqual([
        'a page',
        'folder',
      ]);
      expect(await listed('contributor', `corpus=${UNKNOWN_ID}`)).toMatchObject({
        count: 0,
        results: [],
      });
    });

    it('pages the list', async () => {
      await select('contributor', [pub['public page']!, priv.folder!, priv['a page']!]);
      const first = await listed('contributor', 'page_size=2');
      expect(first).toMatchObject({ count: 3, number: 1, previous: null });
      expect(first.next).toContain('page=2');
      const second = await listed('contributor', 'page_size=2&page=2');
      expect(names(second)).toEqual(['public page']);
    });

    it.each([
      ['corpus=nope', validation('corpus', 'Invalid UUID')],
      ['with_classes=maybe', validation('with_classes', 'Only Yes and No are allowed')],
    ])('answers 400 to the query %s', async (query, expected) => {
      const response = await as('contributor').get(`elements/selection/?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
    });

    it('keeps each user their own selection', async () => {
      await select('contributor', [priv['a page']!]);
      await select('guest', [priv['b page']!, pub['public page']!]);
      expect(names(await listed('contributor'))).toEqual(['a page']);
      expect(names(await listed('guest'))).toEqual(['b page', 'public page']);
      expect(names(await listed('owner'))).toEqual([]);
      const cleared = await as('guest').delete('elements/selection/');
      expect(cleared.statusCode).toBe(204);
      expect(names(await listed('contributor'))).toEqual(['a page']);
    });
  });

  describe('what may be selected', () => {
    it('refuses elements the user cannot read, naming the first, and adds none', async () => {
      const response = await as('outsider').post('elements/selection/', {
        ids: [pub['public page'], priv['a page'], priv['b page']],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPk('ids', priv['a page']!));
      const unknown = await as('outsider').post('elements/selection/', { ids: [UNKNOWN_ID] });
      expect(unknown.json()).toEqual(invalidPk('ids', UNKNOWN_ID));
      expect(await stored(actors.outsider.id)).toEqual([]);
      await select('outsider', [pub['public page']!]);
      expect(names(await listed('outsider'))).toEqual(['public page']);
    });

    it('stops listing elements of a project the user left', async () => {
      const leftId = await makeCorpus(t().app, actors, { name: 'Left' });
      const left = await insertElements(t().app, leftId, [{ name: 'left page', type: 'page' }]);
      await select('guest', [left['left page']!, pub['public page']!]);
      await t()
        .app.db.deleteFrom('memberships')
        .where('user_id', '=', actors.guest.id)
        .where('corpus_id', '=', leftId)
        .execute();
      expect(names(await listed('guest'))).toEqual(['public page']);
      expect(await listed('guest', `corpus=${leftId}`)).toMatchObject({ count: 0 });
      const gone = await as('guest').delete(`corpus/${leftId}/selection/`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual(NOT_FOUND);
      // Adding drops what the user can no longer see, so it never counts against the cap.
      await select('guest', [priv['a page']!]);
      expect(await stored(actors.guest.id)).toEqual([pub['public page']!, priv['a page']!].sort());
    });

    it('loses an element when it is deleted', async () => {
      const made = await insertElements(t().app, privateId, [{ name: 'doomed', type: 'page' }]);
      await select('owner', [made.doomed!, priv['a page']!]);
      await select('contributor', [made.doomed!]);
      const deleted = await as('owner').delete(`element/${made.doomed}/`);
      expect([202, 204]).toContain(deleted.statusCode);
      if (deleted.statusCode === 202) await t().app.jobs.drain();
      expect(names(await listed('owner'))).toEqual(['a page']);
      expect(await stored(actors.contributor.id)).toEqual([]);
    });
  });

  describe('removing', () => {
    beforeEach(async () => {
      await select('contributor', [priv['a page']!, priv['b page']!, pub['public page']!]);
    });

    it('removes one element, and answers the same for one that is not selected', async () => {
      const removed = await as('contributor').delete('elements/selection/', {
        id: priv['a page']!.toUpperCase(),
      });
      expect(removed.statusCode).toBe(204);
      expect(names(await listed('contributor'))).toEqual(['b page', 'public page']);
      const again = await as('contributor').delete('elements/selection/', { id: priv['a page'] });
      expect(again.statusCode).toBe(204);
      const unknown = await as('contributor').delete('elements/selection/', { id: UNKNOWN_ID });
      expect(unknown.statusCode).toBe(204);
      expect(names(await listed('contributor'))).toEqual(['b page', 'public page']);
    });

    it.each([
      ['no body', undefined],
      ['an empty object', {}],
    ])('clears the whole selection with %s', async (_label, body) => {
      const response = await as('contributor').delete('elements/selection/', body);
      expect(response.statusCode).toBe(204);
      expect(await listed('contributor')).toMatchObject({ count: 0, results: [] });
    });

    it("does not unselect a project's part with DELETE /corpus/{id}/selection/", async () => {
      // That call deletes the selected elements (tests/server/selectionBulk.test.ts): admins only.
      const response = await as('contributor').delete(`corpus/${privateId}/selection/`);
      expect(response.statusCode).toBe(403);
      expect(names(await listed('contributor'))).toEqual(['a page', 'b page', 'public page']);
    });

    it.each([
      ['an unreadable project', (): string => privateId, 'outsider'],
      ['an unknown project', (): string => UNKNOWN_ID, 'contributor'],
      ['a project id that is not one', (): string => 'nope', 'contributor'],
    ] as const)('answers 404 for %s', async (_label, corpusId, role) => {
      const response = await as(role).delete(`corpus/${corpusId()}/selection/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
      expect(await stored(actors.contributor.id)).toHaveLength(3);
    });

    it.each([
      [{ id: 'nope' }, validation('id', 'Must be a valid UUID.')],
      [{ id: null }, validation('id', 'This field may not be null.', 'null')],
      [{ id: 12 }, validation('id', 'Not a valid string.')],
      [
        { ids: [UNKNOWN_ID] },
        validation(
          'non_field_errors',
          'Send {"id": "<element id>"} to unselect one element, or no body to clear the selection.',
        ),
      ],
      [
        [UNKNOWN_ID],
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      ],
    ])('answers 400 to %j and keeps the selection', async (body, expected) => {
      const response = await as('contributor').delete('elements/selection/', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect(await stored(actors.contributor.id)).toHaveLength(3);
    });
  });

  describe('bad input', () => {
    it.each([
      [{}, validation('ids', 'This field is required.', 'required')],
      [{ ids: null }, validation('ids', 'This field may not be null.', 'null')],
      [{ ids: 'all' }, validation('ids', 'Expected a list of items but got type "str".')],
      [{ ids: { a: 1 } }, validation('ids', 'Expected a list of items but got type "dict".')],
      [{ ids: [] }, validation('ids', 'This list may not be empty.', 'empty')],
      [{ ids: ['nope'] }, validation('ids.0', 'Must be a valid UUID.')],
      [{ ids: [UNKNOWN_ID, 7] }, validation('ids.1', 'Not a valid string.')],
      [
        [UNKNOWN_ID],
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      ],
      [
        { ids: Array.from({ length: SELECTION_ADD_MAX + 1 }, () => 'nope') },
        validation(
          'ids',
          `Ensure this field has no more than ${SELECTION_ADD_MAX} elements.`,
          'max_length',
        ),
      ],
    ])('answers 400 to %j', async (body, expected) => {
      const response = await as('contributor').post('elements/selection/', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
    });

    it('answers 400 to malformed JSON', async () => {
      for (const [method, url] of [
        ['POST', 'elements/selection/'],
        ['DELETE', 'elements/selection/'],
      ] as const) {
        const response = await as('contributor').request(method, url, '{"ids": [');
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          type: 'client_error',
          errors: [{ code: 'parse_error', attr: null }],
        });
      }
    });

    it(`holds at most ${SELECTION_MAX} elements`, async () => {
      const app = t().app;
      const pageType = (await typeIds(app, privateId)).page!;
      const ids = await app.db.transaction().execute((trx) =>
        createElements(
          trx,
          Array.from({ length: SELECTION_MAX + 1 }, (_, i) => ({
            corpusId: privateId,
            typeId: pageType,
            name: `bulk ${i}`,
            parentId: null,
          })),
        ),
      );
      const created = new Date().toISOString();
      const filled = ids.slice(0, SELECTION_MAX - 1);
      for (let i = 0; i < filled.length; i += 500) {
        await app.db
          .insertInto('selections')
          .values(
            filled
              .slice(i, i + 500)
              .map((id) => ({ user_id: actors.contributor.id, element_id: id, created })),
          )
          .execute();
      }
      const [last, over] = ids.slice(SELECTION_MAX - 1);
      const refused = await as('contributor').post('elements/selection/', {
        ids: [filled[0], last, over],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(
        validation('ids', SELECTION_MESSAGES.full(SELECTION_MAX - 1, 2), 'selection_full'),
      );
      // Elements already selected do not count again.
      await select('contributor', [filled[0]!, last!]);
      expect((await listed('contributor', 'page_size=1')).count).toBe(SELECTION_MAX);
      await select('contributor', [filled[1]!]);
      const full = await as('contributor').post('elements/selection/', { ids: [over] });
      expect(full.json()).toEqual(
        validation('ids', SELECTION_MESSAGES.full(SELECTION_MAX, 1), 'selection_full'),
      );
      await app.db.deleteFrom('elements').where('name', 'like', 'bulk %').execute();
    });
  });

  describe('who may', () => {
    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverifiedAdmin', 403, UNVERIFIED],
    ] as const)('answers %s with %i on every call', async (role, status, expected) => {
      for (const [method, url, body] of everyCall(privateId)) {
        const response = await as(role).request(method, url, body);
        expect([method, url, response.statusCode]).toEqual([method, url, status]);
        expect(response.json()).toEqual(expected);
      }
    });

    it('lets a site admin select any element', async () => {
      await select('siteAdmin', [priv['a page']!]);
      expect(names(await listed('siteAdmin'))).toEqual(['a page']);
    });
  });
});

describeEachDialect(
  'the selection, feature off',
  ({ t }) => {
    it('answers every call with the feature error', async () => {
      const actors = await makeActors(t().app);
      const corpusId = await makeCorpus(t().app, actors, { name: `Off ${randomUUID()}` });
      for (const [method, url, body] of everyCall(corpusId)) {
        const response = await clientFor(t().app, actors, 'owner').request(method, url, body);
        expect([method, url, response.statusCode]).toEqual([method, url, 403]);
        expect(response.json()).toEqual(DISABLED);
      }
      const anonymous = await clientFor(t().app, actors, 'anonymous').get('elements/selection/');
      expect(anonymous.statusCode).toBe(401);
    });
  },
  { FOLIA_FEATURES: 'search,signup' },
);
