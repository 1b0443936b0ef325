import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { childrenLastModified, isNotModified } from '../../server/services/elements/lastModified';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
import { NOT_FOUND, UNKNOWN_ID, UUID } from './expectedErrors';
import { insertElements, makeImage, names } from './elementsFixtures';

const OLD = '2020-01-01T00:00:00.000Z';
const OLD_HTTP = 'Wed, 01 Jan 2020 00:00:00 GMT';

describe('children Last-Modified', () => {
  const now = Date.parse('2024-03-01T12:00:10.700Z');

  it('announces the change in whole seconds once its second is over', () => {
    const lastModified = childrenLastModified(
      { children_updated: '2024-03-01T12:00:05.400Z', created: OLD },
      now,
    );
    expect(lastModified.header).toBe('Fri, 01 Mar 2024 12:00:05 GMT');
    expect(isNotModified('Fri, 01 Mar 2024 12:00:05 GMT', lastModified, now)).toBe(true);
    expect(isNotModified('Fri, 01 Mar 2024 12:00:04 GMT', lastModified, now)).toBe(false);
  });

  it('announces the second before while a later change in the same second could follow', () => {
    const lastModified = childrenLastModified(
      { children_updated: '2024-03-01T12:00:10.100Z', created: OLD },
      now,
    );
    expect(lastModified.header).toBe('Fri, 01 Mar 2024 12:00:09 GMT');
    expect(isNotModified(lastModified.header, lastModified, now)).toBe(false);
  });

  it('falls back on the creation date and ignores unreadable or future dates', () => {
    const lastModified = childrenLastModified({ children_updated: null, created: OLD }, now);
    expect(lastModified.header).toBe(OLD_HTTP);
    expect(isNotModified(undefined, lastModified, now)).toBe(false);
    expect(isNotModified('yesterday', lastModified, now)).toBe(false);
    expect(isNotModified('Sat, 01 Mar 2025 12:00:00 GMT', lastModified, now)).toBe(false);
  });
});

describeEachDialect('element hierarchy', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let publicIds: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    const { app } = t();
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Hierarchy' });
    publicId = await makeCorpus(app, actors, { name: 'Public', public: true });
    const image = await makeImage(app, corpusId, 600, 900);
    ids = await insertElements(app, corpusId, [
      { name: 'Volume', type: 'folder' },
      { name: 'p3', type: 'page', parent: 'Volume', image: image.id },
      { name: 'p1', type: 'page', parent: 'Volume', image: image.id },
      { name: 'p2', type: 'page', parent: 'Volume', image: image.id },
      { name: 'l2', type: 'text_line', parent: 'p1' },
      { name: 'l1', type: 'text_line', parent: 'p1' },
      { name: 'Archive', type: 'folder' },
      { name: 'Box', type: 'folder', parent: 'Archive' },
      { name: 'Alone', type: 'paragraph' },
    ]);
    const linked = await as('contributor').post(`element/${ids.p2}/parent/${ids.Box}/`);
    expect(linked.statusCode).toBe(201);
    expect(linked.json()).toEqual({ child: ids.p2, parent: ids.Box });
    publicIds = await insertElements(app, publicId, [{ name: 'Open folder', type: 'folder' }]);
  });

  describe('GET /elements/{id}/children/', () => {
    const children = (id: string, query = '', role: Role = 'guest') =>
      as(role).get(`elements/${id}/children/${query ? `?${query}` : ''}`);

    it('lists direct children by position by default', async () => {
      const response = await children(ids.Volume!);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ count: 3, number: 1, next: null });
      expect(names(response.json())).toEqual(['p3', 'p1', 'p2']);
      expect(response.json().results[0]).toMatchObject({ id: ids.p3, type: 'page' });
    });

    it('orders by position, name or created, in either direction', async () => {
      expect(names((await children(ids.Volume!, 'order_direction=desc')).json())).toEqual([
        'p2',
        'p1',
        'p3',
      ]);
      expect(names((await children(ids.Volume!, 'order=name')).json())).toEqual(['p1', 'p2', 'p3']);
      expect(
        names((await children(ids.Volume!, 'order=name&order_direction=desc')).json()),
      ).toEqual(['p3', 'p2', 'p1']);
      for (const [name, created] of [
        ['p3', '2021-03-01T00:00:00.000Z'],
        ['p1', '2021-01-01T00:00:00.000Z'],
        ['p2', '2021-02-01T00:00:00.000Z'],
      ] as const) {
        await t()
          .app.db.updateTable('elements')
          .set({ created })
          .where('id', '=', ids[name]!)
          .execute();
      }
      expect(names((await children(ids.Volume!, 'order=created')).json())).toEqual([
        'p1',
        'p2',
        'p3',
      ]);
      expect(names((await children(ids.Volume!, 'order=random')).json()).sort()).toEqual([
        'p1',
        'p2',
        'p3',
      ]);
    });

    it('walks all descendants with recursive, shallowest first', async () => {
      const response = await children(ids.Volume!, 'recursive=true');
      expect(response.json().count).toBe(5);
      expect(names(response.json())).toEqual(['p3', 'p1', 'p2', 'l2', 'l1']);
      expect(names((await children(ids.Volume!, 'recursive=yes&type=text_line')).json())).toEqual([
        'l2',
        'l1',
      ]);
      expect(names((await children(ids.Archive!, 'recursive=true&order=name')).json())).toEqual([
        'Box',
        'p2',
      ]);
      expect(response.headers['last-modified']).toBeUndefined();
    });

    it('filters, adds has_children and pages', async () => {
      const body = (await children(ids.Volume!, 'with_has_children=true&name=p')).json();
      expect(body.results.map((e: { has_children: boolean }) => e.has_children)).toEqual([
        false,
        true,
        false,
      ]);
      expect(names((await children(ids.Volume!, 'folder=true')).json())).toEqual([]);
      const paged = (await children(ids.Volume!, 'page_size=2&page=2')).json();
      expect(names(paged)).toEqual(['p2']);
      expect(paged.previous).toMatch(/page_size=2/);
      const bad = await children(ids.Volume!, 'type=nope');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0]).toEqual({
        code: 'invalid',
        detail: "Type 'nope' not found.",
        attr: 'type',
      });
      expect((await children(ids.Volume!, 'recursive=sure')).json().errors[0].attr).toBe(
        'recursive',
      );
      // top_level means nothing under a parent; it is not a filter of this list.
      expect(names((await children(ids.Volume!, 'top_level=true')).json())).toHaveLength(3);
    });

    it('is 404 for unknown, malformed and unreadable parents', async () => {
      expect((await children(UNKNOWN_ID)).json()).toEqual(NOT_FOUND);
      expect((await children('nope')).statusCode).toBe(404);
      expect((await children(ids.Volume!, '', 'outsider')).statusCode).toBe(404);
      expect((await children(ids.Volume!, '', 'anonymous')).statusCode).toBe(404);
      expect((await children(publicIds['Open folder']!, '', 'anonymous')).statusCode).toBe(200);
    });
  });

  describe('GET /elements/{id}/parents/', () => {
    it('lists direct parents, or all ancestors with recursive', async () => {
      const direct = await as('guest').get(`elements/${ids.l1}/parents/`);
      expect(direct.statusCode).toBe(200);
      expect(names(direct.json())).toEqual(['p1']);
      const all = await as('guest').get(`elements/${ids.l1}/parents/?recursive=true`);
      expect(names(all.json())).toEqual(['Volume', 'p1']);
      const multi = await as('guest').get(`elements/${ids.p2}/parents/?recursive=true`);
      expect(names(multi.json())).toEqual(['Archive', 'Box', 'Volume']);
      const folders = await as('guest').get(
        `elements/${ids.p2}/parents/?type=folder&order_direction=desc`,
      );
      expect(names(folders.json())).toEqual(['Volume', 'Box']);
      expect((await as('guest').get(`elements/${ids.Volume}/parents/`)).json().count).toBe(0);
      const position = await as('guest').get(`elements/${ids.l1}/parents/?order=position`);
      expect(position.statusCode).toBe(400);
      expect(position.json().errors[0].attr).toBe('order');
      expect((await as('outsider').get(`elements/${ids.l1}/parents/`)).statusCode).toBe(404);
    });
  });

  describe('GET /elements/{id}/neighbors/', () => {
    const neighbors = (id: string) => as('guest').get(`elements/${id}/neighbors/`);
    const ref = (name: string, type: string) => ({ id: ids[name], name, type });

    it('gives the path, position and siblings under each parent', async () => {
      const response = await neighbors(ids.l1!);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        {
          path: [ref('Volume', 'folder'), ref('p1', 'page')],
          ordering: 1,
          previous: ref('l2', 'text_line'),
          next: null,
        },
      ]);
      const middle = (await neighbors(ids.p1!)).json();
      expect(middle).toEqual([
        {
          path: [ref('Volume', 'folder')],
          ordering: 1,
          previous: ref('p3', 'page'),
          next: ref('p2', 'page'),
        },
      ]);
    });

    it('gives one entry per path of an element with several parents', async () => {
      const entries = (await neighbors(ids.p2!)).json() as { path: { name: string }[] }[];
      expect(entries).toHaveLength(2);
      const byPath = Object.fromEntries(
        entries.map((entry) => [entry.path.map((p) => p.name).join('/'), entry]),
      );
      expect(byPath['Archive/Box']).toEqual({
        path: [ref('Archive', 'folder'), ref('Box', 'folder')],
        ordering: 0,
        previous: null,
        next: null,
      });
      expect(byPath.Volume).toMatchObject({ ordering: 2, previous: ref('p1', 'page'), next: null });
    });

    it('places a top-level element among the top-level ones by name', async () => {
      expect((await neighbors(ids.Archive!)).json()).toEqual([
        {
          path: [],
          ordering: null,
          previous: ref('Alone', 'paragraph'),
          next: ref('Volume', 'folder'),
        },
      ]);
      expect((await neighbors(ids.Alone!)).json()[0].previous).toBeNull();
      expect((await as('outsider').get(`elements/${ids.p1}/neighbors/`)).statusCode).toBe(404);
      expect((await neighbors(UNKNOWN_ID)).statusCode).toBe(404);
    });
  });

  describe('GET /element/{id}/', () => {
    it('shows the element with the caller rights, classifications and counts', async () => {
      const response = await as('contributor').get(`element/${ids.p1}/`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({
        id: ids.p1,
        name: 'p1',
        type: 'page',
        type_id: expect.stringMatching(UUID),
        corpus: { id: corpusId, name: 'Hierarchy', public: false },
        rights: ['read', 'write'],
        classifications: [],
        metadata_count: 0,
        has_children: true,
        rotation_angle: 0,
        mirrored: false,
        worker_run: null,
      });
      expect(body.zone.polygon).toEqual([
        [0, 0],
        [0, 900],
        [600, 900],
        [600, 0],
        [0, 0],
      ]);
      expect(body).not.toHaveProperty('classes');
    });

    it('counts the metadata of a leaf, which has no children', async () => {
      const now = new Date().toISOString();
      await t()
        .app.db.insertInto('metadata')
        .values(
          ['folio', 'hand'].map((name) => ({
            id: crypto.randomUUID(),
            element_id: ids.l1!,
            type: 'text' as const,
            name,
            value: 'x',
            numeric_value: null,
            worker_run_id: null,
            creator_id: null,
            created: now,
            updated: now,
          })),
        )
        .execute();
      const body = (await as('guest').get(`element/${ids.l1}/`)).json();
      expect(body).toMatchObject({ name: 'l1', metadata_count: 2, has_children: false });
    });

    it.each([
      ['guest', ['read']],
      ['owner', ['read', 'write', 'admin']],
      ['siteAdmin', ['read', 'write', 'admin']],
    ] as const)('gives %s the rights %j', async (role, rights) => {
      expect((await as(role).get(`element/${ids.Volume}/`)).json().rights).toEqual(rights);
    });

    it('is 404 to outsiders and anonymous callers of a private project', async () => {
      expect((await as('outsider').get(`element/${ids.p1}/`)).json()).toEqual(NOT_FOUND);
      expect((await as('anonymous').get(`element/${ids.p1}/`)).statusCode).toBe(404);
      expect((await as('guest').get('element/p1/')).statusCode).toBe(404);
      const open = await as('anonymous').get(`element/${publicIds['Open folder']}/`);
      expect(open.statusCode).toBe(200);
      expect(open.json()).toMatchObject({ rights: ['read'], zone: null, has_children: false });
    });
  });

  describe('GET /iiif/{id}/manifest/', () => {
    it('describes a folder children on images as canvases, in order', async () => {
      const box = await as('guest').get(`iiif/${ids.Box}/manifest/`);
      expect(box.statusCode).toBe(200);
      const manifest = box.json();
      expect(manifest).toMatchObject({
        '@context': 'http://iiif.io/api/presentation/2/context.json',
        '@type': 'sc:Manifest',
        label: 'Box',
      });
      expect(manifest['@id']).toMatch(new RegExp(`/api/v1/iiif/${ids.Box}/manifest/$`));
      const canvases = manifest.sequences[0].canvases;
      expect(canvases.map((c: { label: string }) => c.label)).toEqual(
        names((await as('guest').get(`elements/${ids.Box}/children/?type=page`)).json()).concat(
          names((await as('guest').get(`elements/${ids.Box}/children/?type=paragraph`)).json()),
        ),
      );
      for (const canvas of canvases) {
        expect(canvas).toMatchObject({ '@type': 'sc:Canvas', width: 600, height: 900 });
        const resource = canvas.images[0].resource;
        expect(resource['@id']).toBe(`${resource.service['@id']}/full/full/0/default.jpg`);
        expect(canvas.images[0].on).toBe(canvas['@id']);
      }
    });

    it('is 404 for elements that are not folders, and for outsiders', async () => {
      expect((await as('guest').get(`iiif/${ids.p1}/manifest/`)).statusCode).toBe(404);
      expect((await as('outsider').get(`iiif/${ids.Box}/manifest/`)).statusCode).toBe(404);
    });
  });
  describe('Last-Modified and If-Modified-Since', () => {
    const age = async (id: string) =>
      t()
        .app.db.updateTable('elements')
        .set({ children_updated: OLD })
        .where('id', '=', id)
        .execute();
    const conditional = (id: string, since = OLD_HTTP) =>
      as('owner').get(`elements/${id}/children/`, { 'if-modified-since': since });

    beforeEach(async () => {
      await age(ids.Volume!);
      await age(ids.Archive!);
      await age(ids.Box!);
    });

    it('answers Last-Modified and 304 with an empty body while nothing changed', async () => {
      const full = await as('guest').get(`elements/${ids.Volume}/children/`);
      expect(full.headers['last-modified']).toBe(OLD_HTTP);
      expect(full.headers['cache-control']).toBe('private, no-cache');
      const same = await conditional(ids.Volume!);
      expect(same.statusCode).toBe(304);
      expect(same.body).toBe('');
      expect(same.headers['last-modified']).toBe(OLD_HTTP);
      const older = await conditional(ids.Volume!, 'Tue, 31 Dec 2019 23:59:59 GMT');
      expect(older.statusCode).toBe(200);
      expect(names(older.json())).toEqual(['p3', 'p1', 'p2']);
      // A change that does not show in the list keeps the 304.
      expect(
        (await as('owner').patch(`element/${ids.p3}/`, { rotation_angle: 90 })).statusCode,
      ).toBe(200);
      expect((await conditional(ids.Volume!)).statusCode).toBe(304);
    });

    it('uses the creation date of a parent whose children never changed', async () => {
      const [created] = await insertElements(t().app, corpusId, [
        { name: 'Empty folder', type: 'folder' },
      ]).then((map) => [map['Empty folder']!]);
      await t()
        .app.db.updateTable('elements')
        .set({ created: OLD })
        .where('id', '=', created!)
        .execute();
      expect((await conditional(created!)).statusCode).toBe(304);
    });

    it('checks the query before answering 304', async () => {
      const bad = await as('owner').get(`elements/${ids.Volume}/children/?order=size`, {
        'if-modified-since': OLD_HTTP,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0].attr).toBe('order');
      // A recursive list has no Last-Modified, so it is never a 304.
      const deep = await as('owner').get(`elements/${ids.Volume}/children/?recursive=true`, {
        'if-modified-since': OLD_HTTP,
      });
      expect(deep.statusCode).toBe(200);
    });

    const changes: [string, () => Promise<{ statusCode: number }>, string[]][] = [
      [
        'a child is created',
        () =>
          as('owner').post('elements/create/', {
            corpus: corpusId,
            type: 'page',
            name: 'p4',
            parent: ids.Volume,
          }),
        ['Volume'],
      ],
      [
        'a child is renamed',
        () => as('owner').patch(`element/${ids.p3}/`, { name: 'p3 bis' }),
        ['Volume'],
      ],
      [
        'a child is retyped',
        () => as('owner').patch(`element/${ids.p2}/`, { type: 'paragraph' }),
        ['Volume', 'Box'],
      ],
      [
        'an element is linked',
        () => as('owner').post(`element/${ids.Alone}/parent/${ids.Volume}/`),
        ['Volume'],
      ],
      [
        'a child is unlinked',
        () => as('owner').delete(`element/${ids.Alone}/parent/${ids.Volume}/`),
        ['Volume'],
      ],
      [
        'a child is moved away',
        () => as('owner').post('element/move/', { source: ids.p3, destination: ids.Box }),
        ['Volume', 'Box'],
      ],
      ['a child is deleted', () => as('owner').delete(`element/${ids.p3}/`), ['Box']],
    ];

    it.each(changes)('changes when %s', async (_label, change, parents) => {
      const response = await change();
      expect(response.statusCode).toBeLessThan(300);
      for (const parent of parents) {
        const after = await conditional(ids[parent]!);
        expect(after.statusCode).toBe(200);
        expect(Date.parse(after.headers['last-modified'] as string)).toBeGreaterThan(
          Date.parse(OLD),
        );
      }
      // Archive's own children (Box) did not change.
      expect((await conditional(ids.Archive!)).statusCode).toBe(304);
    });
  });
});
