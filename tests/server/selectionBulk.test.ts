/**
 * The bulk actions on a project's selected elements: DELETE /corpus/{id}/selection/, POST
 * /elements/selection/move/ and POST /elements/selection/parent/. Each refuses what the caller
 * may not do with nothing changed and no job queued, else answers 204 with a job queued, whose
 * run is then checked.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from './actors';
import { expectTopLevelConsistent, insertElements } from './elementsFixtures';
import {
  NOT_ADMIN,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { LINK_MESSAGES } from '../../server/services/elements/links';
import { BULK_MESSAGES } from '../../server/services/selectionBulk';

const PARSE_ERROR = { type: 'client_error', errors: [{ code: 'parse_error', attr: null }] };
const UNVERIFIED = denied('You must verify your email address to perform this action.');

describeEachDialect('bulk actions on the selection', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let other: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const name = (id: string) =>
    Object.keys({ ...ids, ...other }).find((k) => (ids[k] ?? other[k]) === id);

  async function select(role: Exclude<Role, 'anonymous'>, names: string[]) {
    const response = await as(role).post('elements/selection/', {
      ids: names.map((n) => ids[n] ?? other[n]),
    });
    expect(response.statusCode).toBe(204);
  }

  /** For a user the API does not let select (an unverified e-mail). */
  async function selectDirectly(role: 'unverifiedAdmin', names: string[]) {
    await t()
      .app.db.insertInto('selections')
      .values(
        names.map((n) => ({
          user_id: actors[role].id,
          element_id: ids[n]!,
          created: new Date().toISOString(),
        })),
      )
      .execute();
  }

  /** Every link as "parent > child #position", and every element, to compare before and after. */
  async function snapshot() {
    const { db } = t().app;
    const links = await db
      .selectFrom('element_links')
      .select(['parent_id', 'child_id', 'position'])
      .execute();
    const elements = await db.selectFrom('elements').select(['id', 'top_level']).execute();
    const jobs = await db.selectFrom('jobs').select('id').execute();
    return {
      links: links.map((l) => `${name(l.parent_id)} > ${name(l.child_id)} #${l.position}`).sort(),
      elements: elements.map((e) => `${name(e.id)} ${e.top_level}`).sort(),
      jobs: jobs.length,
    };
  }

  /** The names of an element's parents, sorted. */
  async function parentsOf(element: string): Promise<string[]> {
    const rows = await t()
      .app.db.selectFrom('element_links')
      .select('parent_id')
      .where('child_id', '=', ids[element]!)
      .execute();
    return rows.map((row) => name(row.parent_id)!).sort();
  }

  async function selectedNames(role: Exclude<Role, 'anonymous'>): Promise<string[]> {
    const response = await as(role).get('elements/selection/');
    return response.json().results.map((e: { name: string }) => e.name);
  }

  /** Runs the queued jobs; answers the one the call queued, as the owner's list shows it. */
  async function runOnlyJob(role: Exclude<Role, 'anonymous'>) {
    const listed = await as(role).get('jobs/');
    expect(listed.statusCode).toBe(200);
    const [job] = listed.json();
    expect(job).toMatchObject({ status: 'queued', progress: 0, started_at: null, ended_at: null });
    expect(Object.keys(job).sort()).toEqual(
      ['description', 'ended_at', 'enqueued_at', 'id', 'progress', 'started_at', 'status'].sort(),
    );
    await t().app.jobs.drain();
    const detail = await as(role).get(`jobs/${job.id}/`);
    return { listed: job, ended: detail.json() };
  }

  beforeAll(async () => {
    const app = t().app;
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app));
    other = await insertElements(app, publicId, [
      { name: 'other folder', type: 'folder' },
      { name: 'other page', type: 'page', parent: 'other folder' },
    ]);
  });

  beforeEach(async () => {
    const app = t().app;
    await app.db.deleteFrom('jobs').execute();
    await app.db.deleteFrom('selections').execute();
    await app.db.deleteFrom('elements').where('corpus_id', '=', privateId).execute();
    ids = await insertElements(app, privateId, [
      { name: 'A', type: 'folder' },
      { name: 'B', type: 'folder' },
      { name: 'B sub', type: 'folder', parent: 'B' },
      { name: 'p1', type: 'page', parent: 'A' },
      { name: 'p1 line', type: 'text_line', parent: 'p1' },
      { name: 'p2', type: 'page', parent: 'A' },
      { name: 'p2 line', type: 'text_line', parent: 'p2' },
      { name: 'p3', type: 'page', parent: 'B' },
      { name: 'loose', type: 'page' },
    ]);
    // p2 has two parents: a move takes it from both.
    const linked = await as('owner').post(`element/${ids.p2}/parent/${ids.B}/`);
    expect(linked.statusCode).toBe(201);
  });

  describe('deleting the selected elements of a project', () => {
    it('deletes them with their children in a job, and they leave every selection', async () => {
      await select('owner', ['p1', 'p2', 'other page']);
      await select('contributor', ['p1', 'p3']);
      const response = await as('owner').delete(`corpus/${privateId}/selection/`);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      // Queued, not done: nothing deleted yet.
      expect(await parentsOf('p1')).toEqual(['A']);
      const { listed, ended } = await runOnlyJob('owner');
      expect(listed.description).toBe(
        'Deleting 2 selected elements and their children of project Private',
      );
      expect(ended).toMatchObject({
        status: 'processed',
        progress: 1,
        result: { deleted: 4, total: 4 },
      });
      const left = await t()
        .app.db.selectFrom('elements')
        .select('name')
        .where('corpus_id', '=', privateId)
        .orderBy('name')
        .execute();
      expect(left.map((row) => row.name)).toEqual(['A', 'B', 'B sub', 'loose', 'p3']);
      expect(await selectedNames('owner')).toEqual(['other page']);
      expect(await selectedNames('contributor')).toEqual(['p3']);
      expect(await parentsOf('p3')).toEqual(['B']);
      await expectTopLevelConsistent(t().app);
    });

    it('leaves the children in place with delete_children=false', async () => {
      await select('owner', ['p1']);
      const response = await as('owner').delete(
        `corpus/${privateId}/selection/?delete_children=false`,
      );
      expect(response.statusCode).toBe(204);
      const { listed, ended } = await runOnlyJob('owner');
      expect(listed.description).toBe('Deleting 1 selected element of project Private');
      expect(ended.result).toEqual({ deleted: 1, total: 1 });
      expect(await parentsOf('p1 line')).toEqual([]);
      await expectTopLevelConsistent(t().app);
    });

    it.each([
      ['contributor', 403, NOT_ADMIN],
      ['guest', 403, NOT_ADMIN],
      ['outsider', 404, NOT_FOUND],
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverifiedAdmin', 403, UNVERIFIED],
    ] as const)('refuses %s with %i and changes nothing', async (role, status, expected) => {
      if (role === 'unverifiedAdmin') await selectDirectly(role, ['p1', 'p2']);
      else if (role !== 'anonymous' && role !== 'outsider') await select(role, ['p1', 'p2']);
      else await select('owner', ['p1']);
      const before = await snapshot();
      const response = await as(role).delete(`corpus/${privateId}/selection/`);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['an unknown project', UNKNOWN_ID, '', 404, NOT_FOUND],
      ['a project id that is not one', 'nope', '', 404, NOT_FOUND],
      [
        'a bad delete_children',
        'private',
        '?delete_children=maybe',
        400,
        validation('delete_children', 'Only Yes and No are allowed'),
      ],
      [
        'a project without selected elements',
        'public-empty',
        '',
        400,
        validation('non_field_errors', BULK_MESSAGES.empty, 'empty'),
      ],
    ])('answers %s and changes nothing', async (_label, project, query, status, expected) => {
      await select('owner', ['p1']);
      const corpus =
        project === 'private' ? privateId : project === 'public-empty' ? publicId : project;
      const before = await snapshot();
      const response = await as('owner').delete(`corpus/${corpus}/selection/${query}`);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
      expect(await snapshot()).toEqual(before);
      expect(await selectedNames('owner')).toEqual(['p1']);
    });

    it('lets a site admin delete their own selection of any project', async () => {
      await select('siteAdmin', ['loose']);
      const response = await as('siteAdmin').delete(`corpus/${privateId}/selection/`);
      expect(response.statusCode).toBe(204);
      const { ended } = await runOnlyJob('siteAdmin');
      expect(ended.result).toEqual({ deleted: 1, total: 1 });
    });
  });

  describe('moving the selected elements to a folder', () => {
    it('takes each from all its parents to the folder, its children with it', async () => {
      await select('contributor', ['p1', 'p2', 'other page']);
      const response = await as('contributor').post('elements/selection/move/', {
        corpus_id: privateId,
        destination: ids['B sub'],
      });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await parentsOf('p2')).toEqual(['A', 'B']);
      const { listed, ended } = await runOnlyJob('contributor');
      expect(listed.description).toBe('Moving 2 selected elements of project Private to B sub');
      expect(ended).toMatchObject({
        status: 'processed',
        progress: 1,
        result: { done: 2, changed: 2, skipped: 0 },
      });
      expect(await parentsOf('p1')).toEqual(['B sub']);
      expect(await parentsOf('p2')).toEqual(['B sub']);
      expect(await parentsOf('p1 line')).toEqual(['p1']);
      const children = await as('contributor').get(`elements/${ids['B sub']}/children/`);
      expect(
        children
          .json()
          .results.map((e: { name: string }) => e.name)
          .sort(),
      ).toEqual(['p1', 'p2']);
      // The other project's element stays where it was, and the selection is unchanged.
      expect(
        await t()
          .app.db.selectFrom('element_links')
          .select('parent_id')
          .where('child_id', '=', other['other page']!)
          .execute(),
      ).toEqual([{ parent_id: other['other folder'] }]);
      expect(await selectedNames('contributor')).toEqual(['p1', 'p2', 'other page']);
      await expectTopLevelConsistent(t().app);
    });

    it('skips, when the job runs, an element the folder has since been moved under', async () => {
      await select('contributor', ['p1', 'p3']);
      const response = await as('contributor').post('elements/selection/move/', {
        corpus_id: privateId,
        destination: ids.A,
      });
      expect(response.statusCode).toBe(204);
      // Meanwhile A goes under p3: moving p3 under A now would make a loop.
      await t().app.db.deleteFrom('element_links').where('child_id', '=', ids.A!).execute();
      await t()
        .app.db.insertInto('element_links')
        .values({
          parent_id: ids.p3!,
          child_id: ids.A!,
          position: 0,
          created: new Date().toISOString(),
        })
        .execute();
      const { ended } = await runOnlyJob('contributor');
      expect(ended.result).toEqual({ done: 2, changed: 1, skipped: 1 });
      expect(await parentsOf('p3')).toEqual(['B']);
      expect(await parentsOf('p1')).toEqual(['A']);
    });

    it('ends in error, with what it did, when the folder was deleted meanwhile', async () => {
      await select('contributor', ['p1']);
      const response = await as('contributor').post('elements/selection/move/', {
        corpus_id: privateId,
        destination: ids['B sub'],
      });
      expect(response.statusCode).toBe(204);
      await t().app.db.deleteFrom('elements').where('id', '=', ids['B sub']!).execute();
      const { ended } = await runOnlyJob('contributor');
      expect(ended).toMatchObject({
        status: 'error',
        error: 'The destination folder no longer exists.',
      });
      expect(await parentsOf('p1')).toEqual(['A']);
    });
  });

  describe('linking the selected elements to a parent', () => {
    it('adds the folder as one more parent, once', async () => {
      await select('contributor', ['p1', 'p3', 'loose']);
      const response = await as('contributor').post('elements/selection/parent/', {
        corpus_id: privateId,
        parent_id: ids.B,
      });
      expect(response.statusCode).toBe(204);
      const { listed, ended } = await runOnlyJob('contributor');
      expect(listed.description).toBe('Linking 3 selected elements of project Private to B');
      expect(ended).toMatchObject({ status: 'processed', progress: 1 });
      expect(ended.result).toEqual({ done: 3, changed: 3, skipped: 0 });
      expect(await parentsOf('p1')).toEqual(['A', 'B']);
      expect(await parentsOf('p3')).toEqual(['B']);
      expect(await parentsOf('loose')).toEqual(['B']);
      await expectTopLevelConsistent(t().app);
    });
  });

  describe.each([
    ['move', 'elements/selection/move/', 'destination'],
    ['link', 'elements/selection/parent/', 'parent_id'],
  ] as const)('refusing a %s', (kind, url, attr) => {
    const body = (corpus: string, target: string): Record<string, string> => ({
      corpus_id: corpus,
      [attr]: target,
    });
    type Case = [string, Role, () => unknown, () => unknown];

    it.each<Case>([
      [
        'a guest',
        'guest',
        () => body(privateId, ids.B!),
        () => validation('corpus_id', BULK_MESSAGES.noWrite, 'permission_denied'),
      ],
      [
        'an outsider',
        'outsider',
        () => body(privateId, ids.B!),
        () => invalidPk('corpus_id', privateId),
      ],
      [
        'an unknown project',
        'contributor',
        () => body(UNKNOWN_ID, ids.B!),
        () => invalidPk('corpus_id', UNKNOWN_ID),
      ],
      [
        'an unknown folder',
        'contributor',
        () => body(privateId, UNKNOWN_ID),
        () => invalidPk(attr, UNKNOWN_ID),
      ],
      [
        'a folder of another project',
        'contributor',
        () => body(privateId, other['other folder']!),
        () =>
          validation(attr, kind === 'move' ? LINK_MESSAGES.sameProject : LINK_MESSAGES.linkProject),
      ],
      [
        'an element that is not a folder',
        'contributor',
        () => body(privateId, ids.loose!),
        () =>
          validation(
            attr,
            kind === 'move' ? LINK_MESSAGES.notFolder : BULK_MESSAGES.parentNotFolder,
          ),
      ],
      [
        'a selected folder',
        'contributor',
        () => body(privateId, ids.A!),
        () => validation(attr, kind === 'move' ? BULK_MESSAGES.moveCycle : BULK_MESSAGES.linkCycle),
      ],
      [
        'a folder inside a selected element',
        'contributor',
        () => body(privateId, ids['B sub']!),
        () => validation(attr, kind === 'move' ? BULK_MESSAGES.moveCycle : BULK_MESSAGES.linkCycle),
      ],
      [
        'a project without selected elements',
        'contributor',
        () => body(publicId, other['other folder']!),
        () => validation('non_field_errors', BULK_MESSAGES.empty, 'empty'),
      ],
      [
        'a missing folder',
        'contributor',
        () => ({ corpus_id: privateId }),
        () => validation(attr, 'This field is required.', 'required'),
      ],
      [
        'an id that is not one',
        'contributor',
        () => body('nope', ids.B!),
        () => validation('corpus_id', 'Must be a valid UUID.'),
      ],
      [
        'a list',
        'contributor',
        () => [privateId],
        () => validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      ],
      ['malformed JSON', 'contributor', () => '{"corpus_id": ', () => PARSE_ERROR],
      ['anonymous', 'anonymous', () => body(privateId, ids.B!), () => NOT_AUTHENTICATED],
      ['an unverified admin', 'unverifiedAdmin', () => body(privateId, ids.B!), () => UNVERIFIED],
    ])('refuses %s with nothing changed', async (_label, role, makeBody, expected) => {
      for (const selecting of ['guest', 'outsider', 'contributor', 'unverifiedAdmin'] as const) {
        if (selecting === 'unverifiedAdmin') {
          await selectDirectly(selecting, ['A', 'B']);
        } else {
          await select(selecting, selecting === 'outsider' ? ['other page'] : ['A', 'B']);
        }
      }
      const before = await snapshot();
      const response = await as(role).post(url, makeBody());
      const wanted = expected();
      expect(response.statusCode).toBe(
        wanted === NOT_AUTHENTICATED ? 401 : wanted === UNVERIFIED ? 403 : 400,
      );
      if (wanted === PARSE_ERROR) expect(response.json()).toMatchObject(wanted);
      else expect(response.json()).toEqual(wanted);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('the jobs of bulk actions', () => {
    it('are removed by DELETE /jobs/{id}/ before they run, which then changes nothing', async () => {
      await select('contributor', ['p1']);
      await as('contributor').post('elements/selection/move/', {
        corpus_id: privateId,
        destination: ids['B sub'],
      });
      const [job] = (await as('contributor').get('jobs/')).json();
      const before = await snapshot();
      const removed = await as('contributor').delete(`jobs/${job.id}/`);
      expect(removed.statusCode).toBe(204);
      await t().app.jobs.drain();
      expect((await as('contributor').get('jobs/')).json()).toEqual([]);
      expect(await snapshot()).toEqual({ ...before, jobs: before.jobs - 1 });
      expect(await parentsOf('p1')).toEqual(['A']);
    });

    it('are shown to their owner only', async () => {
      await select('owner', ['p1']);
      await as('owner').delete(`corpus/${privateId}/selection/`);
      expect((await as('contributor').get('jobs/')).json()).toEqual([]);
      expect((await as('owner').get('jobs/')).json()).toHaveLength(1);
    });
  });
});
