import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import {
  NOT_FOUND,
  REFUSED_TO_NON_ADMINS,
  UNKNOWN_ID,
  invalidPk,
  validation,
} from '../expectedErrors';
import { createProcess, makeTree } from './fixtures';

describeEachDialect('creating processes and choosing their elements', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let classId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  const elementNames = async (processId: string, query = '') => {
    const response = await as('owner').get(`process/${processId}/elements/?page_size=500${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { results: { name: string }[] }).results.map((e) => e.name);
  };

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    ids = await makeTree(t().app, privateId);
    classId = randomUUID();
    await t()
      .app.db.insertInto('ml_classes')
      .values({ id: classId, corpus_id: privateId, name: 'Dog' })
      .execute();
    const now = new Date().toISOString();
    for (const name of ['Page 2', 'Line 1b']) {
      await t()
        .app.db.insertInto('classifications')
        .values({
          id: randomUUID(),
          element_id: ids[name]!,
          ml_class_id: classId,
          state: 'pending',
          confidence: 1,
          high_confidence: 0,
          worker_run_id: null,
          creator_id: null,
          moderator_id: null,
          created: now,
          updated: now,
        })
        .execute();
    }
  });

  describe('POST /process/corpus/', () => {
    it('makes an unscheduled workers process of the project for an admin', async () => {
      const made = await createProcess(as('owner'), privateId, {
        name: 'OCR run',
        element: ids['Volume A'],
        load_children: 'direct',
        element_type: 'page',
      });
      expect(made).toMatchObject({
        name: 'OCR run',
        mode: 'workers',
        corpus: privateId,
        corpus_name: 'Private',
        state: 'unscheduled',
        creator: { id: actors.owner.id, display_name: 'Owner' },
        element: { id: ids['Volume A'], name: 'Volume A', type: 'folder' },
        element_type: 'page',
        element_name_contains: null,
        load_children: 'direct',
        ml_class_id: null,
        selection_count: 0,
        template_id: null,
        farm: null,
        chunks: 1,
        use_gpu: false,
        started: null,
        finished: null,
        activity_state: 'disabled',
        tasks: [],
      });
      const read = await as('guest').get(`process/${made.id}/`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(made);
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'refuses %s on a %s project: %d',
      async (role, project, status, body) => {
        const corpus = project === 'private' ? privateId : publicId;
        const before = await t().app.db.selectFrom('processes').select('id').execute();
        const response = await as(role).post('process/corpus/', { corpus });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(body);
        expect(await t().app.db.selectFrom('processes').select('id').execute()).toHaveLength(
          before.length,
        );
      },
    );

    it('answers 400 for bad input and unknown ids, and makes nothing', async () => {
      const cases: [Record<string, unknown>, number][] = [
        [{ corpus: 'nope' }, 400],
        [{ corpus: privateId, load_children: 'some' }, 400],
        [{ corpus: privateId, selection: 'yes' }, 400],
        [{ corpus: privateId, element: 'nope' }, 400],
        [{ corpus: privateId, element: UNKNOWN_ID }, 400],
        [{ corpus: privateId, element_type: 'volume' }, 400],
        [{ corpus: privateId, ml_class_id: UNKNOWN_ID }, 400],
        [{ corpus: UNKNOWN_ID }, 404],
      ];
      const before = await t().app.db.selectFrom('processes').select('id').execute();
      for (const [body, status] of cases) {
        const response = await as('owner').post('process/corpus/', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
      }
      expect(
        (
          await as('owner').post('process/corpus/', { corpus: privateId, element: UNKNOWN_ID })
        ).json(),
      ).toEqual(invalidPk('element', UNKNOWN_ID));
      expect(
        (
          await as('owner').post('process/corpus/', { corpus: privateId, element_type: 'volume' })
        ).json(),
      ).toEqual(validation('element_type', "Type 'volume' not found.", 'does_not_exist'));
      expect((await as('owner').post('process/corpus/', [])).statusCode).toBe(400);
      expect(await t().app.db.selectFrom('processes').select('id').execute()).toHaveLength(
        before.length,
      );
    });

    it('copies the caller’s selected elements of the project, and refuses an empty selection', async () => {
      const owner = as('owner');
      const empty = await owner.post('process/corpus/', { corpus: privateId, selection: true });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual(
        validation('selection', 'You have no selected elements in this project.'),
      );
      const added = await owner.post('elements/selection/', {
        ids: [ids['Page 3'], ids['Volume B']],
      });
      expect(added.statusCode).toBeLessThan(300);
      const made = await createProcess(owner, privateId, { selection: true });
      expect(made.selection_count).toBe(2);
      expect(await elementNames(made.id)).toEqual(['Page 3', 'Volume B']);
      await owner.patch(`process/${made.id}/`, { load_children: 'all' });
      expect(await elementNames(made.id)).toEqual(['Page 3', 'Page 4', 'Volume B']);
      await owner.delete('elements/selection/');
    });
  });

  describe('element filters', () => {
    it('selects top-level elements, their children or the whole project', async () => {
      const owner = as('owner');
      const made = await createProcess(owner, privateId);
      expect(await elementNames(made.id)).toEqual(['Loose page', 'Volume A', 'Volume B']);
      await owner.patch(`process/${made.id}/`, { load_children: 'direct' });
      expect(await elementNames(made.id)).toEqual([
        'Loose page',
        'Page 1',
        'Page 2',
        'Page 3',
        'Page 4',
        'Volume A',
        'Volume B',
      ]);
      await owner.patch(`process/${made.id}/`, { load_children: 'all' });
      expect(await elementNames(made.id)).toHaveLength(9);
      await owner.patch(`process/${made.id}/`, { element_type: 'text_line' });
      expect(await elementNames(made.id)).toEqual(['Line 1a', 'Line 1b']);
      await owner.patch(`process/${made.id}/`, { element_type: null, ml_class_id: classId });
      expect(await elementNames(made.id)).toEqual(['Line 1b', 'Page 2']);
      await owner.patch(`process/${made.id}/`, {
        ml_class_id: null,
        element_name_contains: 'PAGE ',
      });
      expect(await elementNames(made.id)).toEqual(['Page 1', 'Page 2', 'Page 3', 'Page 4']);
    });

    it('selects an element, its children or all its descendants', async () => {
      const owner = as('owner');
      const made = await createProcess(owner, privateId, { element: ids['Volume A'] });
      expect(await elementNames(made.id)).toEqual(['Volume A']);
      await owner.patch(`process/${made.id}/`, { load_children: 'direct' });
      expect(await elementNames(made.id)).toEqual(['Page 1', 'Page 2', 'Page 3', 'Volume A']);
      await owner.patch(`process/${made.id}/`, { load_children: 'all' });
      expect(await elementNames(made.id)).toEqual([
        'Line 1a',
        'Line 1b',
        'Page 1',
        'Page 2',
        'Page 3',
        'Volume A',
      ]);
      const patched = await owner.patch(`process/${made.id}/`, {
        element: ids['Page 1'],
        name: 'Renamed',
      });
      expect(patched.json()).toMatchObject({
        name: 'Renamed',
        element: { id: ids['Page 1'], name: 'Page 1', type: 'page' },
        load_children: 'all',
      });
      expect(await elementNames(made.id)).toEqual(['Line 1a', 'Line 1b', 'Page 1']);
    });

    it('refuses filter changes from non-admins and bad values, changing nothing', async () => {
      const made = await createProcess(as('owner'), privateId, { element_type: 'page' });
      expect((await as('contributor').patch(`process/${made.id}/`, { name: 'x' })).statusCode).toBe(
        403,
      );
      expect((await as('outsider').patch(`process/${made.id}/`, { name: 'x' })).statusCode).toBe(
        404,
      );
      expect(
        (await as('owner').patch(`process/${made.id}/`, { load_children: 3 })).statusCode,
      ).toBe(400);
      expect(
        (await as('owner').patch(`process/${made.id}/`, { element_type: 'nope' })).statusCode,
      ).toBe(400);
      expect(
        (await as('owner').patch(`process/${made.id}/`, { state: 'stopping' })).json(),
      ).toEqual({
        type: 'client_error',
        errors: [
          {
            code: 'invalid',
            detail: 'Only a pending or running process can be stopped.',
            attr: null,
          },
        ],
      });
      expect((await as('owner').get(`process/${made.id}/`)).json()).toMatchObject({
        name: null,
        element_type: 'page',
        load_children: 'none',
      });
    });
  });

  describe('GET /process/{id}/elements/', () => {
    it('pages with a cursor, counts and gives image fields on request', async () => {
      const made = await createProcess(as('owner'), privateId, { load_children: 'all' });
      const seen: string[] = [];
      let url: string | null = `process/${made.id}/elements/?page_size=4&with_count=true`;
      let pages = 0;
      let lastPage: { previous: string | null } | undefined;
      while (url) {
        const response = await as('guest').get(url);
        expect(response.statusCode).toBe(200);
        const body = response.json() as {
          next: string | null;
          previous: string | null;
          count: number;
          results: { name: string; type: string; type_id: string; image_id?: unknown }[];
        };
        expect(body.count).toBe(9);
        expect(body.results.length).toBeLessThanOrEqual(4);
        expect(body.results[0]).not.toHaveProperty('image_id');
        seen.push(...body.results.map((e) => e.name));
        if (pages === 0) expect(body.previous).toBeNull();
        pages += 1;
        lastPage = body;
        url = body.next ? body.next.replace(/^.*\/api\/v1\//, '') : null;
      }
      expect(pages).toBe(3);
      expect(lastPage!.previous).not.toBeNull();
      // Back from the last page to the first, by `previous` links.
      const back: string[][] = [];
      let previous: string | null = lastPage!.previous;
      while (previous) {
        const response = await as('guest').get(previous.replace(/^.*\/api\/v1\//, ''));
        const body = response.json() as { previous: string | null; results: { name: string }[] };
        back.unshift(body.results.map((e) => e.name));
        previous = body.previous;
      }
      expect(back).toEqual([
        ['Line 1a', 'Line 1b', 'Loose page', 'Page 1'],
        ['Page 2', 'Page 3', 'Page 4', 'Volume A'],
      ]);
      expect(seen).toEqual([
        'Line 1a',
        'Line 1b',
        'Loose page',
        'Page 1',
        'Page 2',
        'Page 3',
        'Page 4',
        'Volume A',
        'Volume B',
      ]);
      const imaged = await as('owner').get(`process/${made.id}/elements/?with_image=true`);
      expect(imaged.json().results[0]).toMatchObject({
        name: 'Line 1a',
        type: 'text_line',
        image_id: null,
        image_url: null,
        polygon: null,
        rotation_angle: 0,
        mirrored: false,
      });
      expect(imaged.json()).not.toHaveProperty('count');
      expect((await as('owner').get(`process/${made.id}/elements/?cursor=bad`)).statusCode).toBe(
        404,
      );
      expect((await as('outsider').get(`process/${made.id}/elements/`)).json()).toEqual(NOT_FOUND);
      expect((await as('owner').get(`process/not-a-uuid/elements/`)).statusCode).toBe(404);
    });
  });
});
