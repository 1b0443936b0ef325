import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
import { NOT_FOUND, UNKNOWN_ID, UUID, validation } from './expectedErrors';
import { insertElements, makeImage, names } from './elementsFixtures';

const NOW = '2024-05-01T10:00:00.000Z';

async function addClass(app: FastifyInstance, corpusId: string, name: string) {
  const id = randomUUID();
  await app.db.insertInto('ml_classes').values({ id, corpus_id: corpusId, name }).execute();
  return id;
}

async function classify(
  app: FastifyInstance,
  elementId: string,
  classId: string,
  confidence: number,
  highConfidence: boolean,
) {
  await app.db
    .insertInto('classifications')
    .values({
      id: randomUUID(),
      element_id: elementId,
      ml_class_id: classId,
      state: 'pending',
      confidence,
      high_confidence: highConfidence ? 1 : 0,
      worker_run_id: null,
      creator_id: null,
      moderator_id: null,
      created: NOW,
      updated: NOW,
    })
    .execute();
}

async function addMetadata(
  app: FastifyInstance,
  elementId: string,
  name: string,
  value: string,
  type: 'text' | 'numeric' = 'text',
) {
  await app.db
    .insertInto('metadata')
    .values({
      id: randomUUID(),
      element_id: elementId,
      type,
      name,
      value,
      numeric_value: type === 'numeric' ? Number(value) : null,
      worker_run_id: null,
      creator_id: null,
      created: NOW,
      updated: NOW,
    })
    .execute();
}

async function transcribe(
  app: FastifyInstance,
  elementId: string,
  confidence: number | null,
  workerRunId: string | null,
) {
  await app.db
    .insertInto('transcriptions')
    .values({
      id: randomUUID(),
      element_id: elementId,
      text: 'text',
      orientation: 'horizontal-lr',
      confidence,
      worker_run_id: workerRunId,
      creator_id: null,
      created: NOW,
      updated: NOW,
    })
    .execute();
}

describeEachDialect('element lists', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let classId: string;
  let imageId: string;
  const WORKER_RUN = '0b4d6f0e-2c3a-4d5e-8f90-1a2b3c4d5e6f';
  const as = (role: Role) => clientFor(t().app, actors, role);
  const list = (query = '', role: Role = 'guest') =>
    as(role).get(`corpus/${corpusId}/elements/${query ? `?${query}` : ''}`);

  beforeAll(async () => {
    const { app } = t();
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Registers' });
    publicId = await makeCorpus(app, actors, { name: 'Open', public: true });
    const image = await makeImage(app, corpusId, 1000, 800);
    imageId = image.id;
    ids = await insertElements(app, corpusId, [
      { name: 'Volume 1', type: 'folder', creatorId: actors.owner.id },
      {
        name: 'page 01',
        type: 'page',
        parent: 'Volume 1',
        image: image.id,
        confidence: 0.9,
        rotation: 90,
        mirrored: true,
      },
      { name: 'page 02', type: 'page', parent: 'Volume 1', image: image.id, confidence: 0.5 },
      {
        name: 'line a',
        type: 'text_line',
        parent: 'page 01',
        image: image.id,
        polygon: [
          [10, 20],
          [110, 20],
          [110, 60],
          [10, 60],
          [10, 20],
        ],
        workerRunId: WORKER_RUN,
      },
      { name: 'Volume 2', type: 'folder' },
      { name: 'Note_50%', type: 'paragraph', creatorId: actors.contributor.id },
    ]);
    classId = await addClass(app, corpusId, 'handwritten');
    await classify(app, ids['page 01']!, classId, 0.95, true);
    await classify(app, ids['page 02']!, classId, 0.4, false);
    await addMetadata(app, ids['page 01']!, 'folio', '12', 'numeric');
    await addMetadata(app, ids['page 02']!, 'folio', '3', 'numeric');
    await addMetadata(app, ids['Volume 2']!, 'title', 'Baptisms of Arras');
    await transcribe(app, ids['line a']!, 0.8, null);
    await transcribe(app, ids['page 02']!, 0.3, WORKER_RUN);
  });

  describe('GET /corpus/{id}/elements/', () => {
    it('lists every element by name with the list shape', async () => {
      const response = await list();
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ count: 6, number: 1, next: null, previous: null });
      expect(names(body)).toEqual([
        'Note_50%',
        'Volume 1',
        'Volume 2',
        'line a',
        'page 01',
        'page 02',
      ]);
      const line = body.results[3];
      expect(line).toEqual({
        id: ids['line a'],
        type: 'text_line',
        type_id: expect.stringMatching(UUID),
        name: 'line a',
        corpus: { id: corpusId },
        thumbnail_url: `https://iiif.example.org/iiif/2/${line.zone.image.path}/10,20,100,40/,200/0/default.jpg`,
        zone: {
          id: ids['line a'],
          polygon: [
            [10, 20],
            [110, 20],
            [110, 60],
            [10, 60],
            [10, 20],
          ],
          image: expect.objectContaining({
            id: imageId,
            width: 1000,
            height: 800,
            status: 'checked',
          }),
          url: `${line.zone.image.url}/10,20,100,40/full/0/default.jpg`,
        },
        rotation_angle: 0,
        mirrored: false,
        confidence: null,
        created: expect.any(String),
        creator: null,
        worker_run: { id: WORKER_RUN, summary: expect.any(String) },
        has_children: null,
      });
      const page = body.results[4];
      expect(page.zone.polygon).toEqual([
        [0, 0],
        [0, 800],
        [1000, 800],
        [1000, 0],
        [0, 0],
      ]);
      expect(page.thumbnail_url).toBe(`${page.zone.image.url}/full/,200/0/default.jpg`);
      expect(page).toMatchObject({ rotation_angle: 90, mirrored: true, confidence: 0.9 });
      const folder = body.results[1];
      expect(folder).toMatchObject({
        zone: null,
        thumbnail_url: null,
        creator: actors.owner.email,
      });
      expect(folder).not.toHaveProperty('classes');
      expect(folder).not.toHaveProperty('metadata');
    });

    it('adds classes, metadata, has_children and the full corpus on request', async () => {
      const body = (
        await list(
          'with_classes=true&with_metadata=yes&with_has_children=1&with_corpus=true&name=page 01',
        )
      ).json();
      expect(body.results).toHaveLength(1);
      expect(body.results[0]).toMatchObject({
        corpus: { id: corpusId, name: 'Registers', public: false },
        has_children: true,
        classes: [
          {
            id: expect.stringMatching(UUID),
            ml_class: { id: classId, name: 'handwritten' },
            state: 'pending',
            confidence: 0.95,
            high_confidence: true,
            worker_run: null,
          },
        ],
        metadata: [
          {
            id: expect.stringMatching(UUID),
            type: 'numeric',
            name: 'folio',
            value: '12',
            dates: [],
            worker_run: null,
          },
        ],
      });
      const page2 = (await list('with_has_children=true&name=page 02')).json().results[0];
      expect(page2.has_children).toBe(false);
      const noZone = (await list('with_zone=false&name=page 02')).json().results[0];
      expect(noZone.zone).toBeNull();
    });

    it.each([
      ['name=PAGE', ['page 01', 'page 02']],
      // % and _ are literal: as wildcards they would match 'Volume 1', 'line a', 'page 01'.
      ['name=e_', ['Note_50%']],
      ['name=1%25', []],
      ['name=0%25', ['Note_50%']],
      ['type=folder', ['Volume 1', 'Volume 2']],
      ['folder=true', ['Volume 1', 'Volume 2']],
      ['folder=no', ['Note_50%', 'line a', 'page 01', 'page 02']],
      ['top_level=true', ['Note_50%', 'Volume 1', 'Volume 2']],
      ['top_level=false', ['line a', 'page 01', 'page 02']],
      ['worker_run=false&type=text_line', []],
      [`worker_run=${WORKER_RUN}`, ['line a']],
      ['worker_version=false&type=text_line', []],
      ['creator_email=CONTRIBUTOR', []],
      ['confidence=0.9', ['page 01']],
      ['confidence=0.5&confidence_operator=gte', ['page 01', 'page 02']],
      ['confidence=0.6&confidence_operator=lt', ['page 02']],
      ['rotation_angle=90', ['page 01']],
      ['mirrored=true', ['page 01']],
      ['metadata_name=folio', ['page 01', 'page 02']],
      ['metadata_name=folio&metadata_value=12', ['page 01']],
      ['metadata_name=folio&metadata_value=5&metadata_operator=gt', ['page 01']],
      ['metadata_name=folio&metadata_value=3&metadata_operator=lte', ['page 02']],
      ['metadata_name=folio&metadata_value=12&metadata_operator=gte', ['page 01']],
      ['metadata_name=folio&metadata_value=12&metadata_operator=lt', ['page 02']],
      ['metadata_value=arras&metadata_operator=contains', ['Volume 2']],
      ['classification_high_confidence=true', ['page 01']],
      ['classification_confidence=0.5&classification_confidence_operator=lt', ['page 02']],
      ['transcription_worker_run=false', ['line a']],
      [`transcription_worker_run=${WORKER_RUN}`, ['page 02']],
      ['transcription_confidence=0.5&transcription_confidence_operator=gt', ['line a']],
      ['transcription_worker_version=false', ['line a']],
    ])('filters with %s', async (query, expected) => {
      const response = await list(query);
      expect(response.statusCode).toBe(200);
      expect(names(response.json())).toEqual(expected);
    });

    it('filters on folders in a project without any folder type', async () => {
      const { app } = t();
      const bare = await makeCorpus(app, actors, { name: 'No folders' });
      await insertElements(app, bare, [{ name: 'only page', type: 'page' }]);
      await app.db
        .deleteFrom('element_types')
        .where('corpus_id', '=', bare)
        .where('slug', '=', 'folder')
        .execute();
      const url = (query: string) => `corpus/${bare}/elements/?${query}`;
      expect(names((await as('guest').get(url('folder=true'))).json())).toEqual([]);
      expect(names((await as('guest').get(url('folder=false'))).json())).toEqual(['only page']);
    });

    it('filters by creator e-mail whatever its case, and by class', async () => {
      const byEmail = await list(`creator_email=${actors.contributor.email.toUpperCase()}`);
      expect(names(byEmail.json())).toEqual(['Note_50%']);
      const byClass = await list(`class_id=${classId}`);
      expect(names(byClass.json())).toEqual(['page 01', 'page 02']);
      const combined = await list(`class_id=${classId}&classification_high_confidence=false`);
      expect(names(combined.json())).toEqual(['page 02']);
      const manual = await list('worker_run=false&type=page');
      expect(names(manual.json())).toEqual(['page 01', 'page 02']);
    });

    it.each([
      ['type=volume', 'type', "Type 'volume' not found."],
      ['folder=maybe', 'folder', 'Only Yes and No are allowed'],
      ['top_level=2', 'top_level', 'Only Yes and No are allowed'],
      ['mirrored=oui', 'mirrored', 'Only Yes and No are allowed'],
      [
        'classification_high_confidence=x',
        'classification_high_confidence',
        'Only Yes and No are allowed',
      ],
      ['confidence=1.5', 'confidence', 'A confidence must be a number between 0.0 and 1.0'],
      ['confidence=abc', 'confidence', 'A confidence must be a number between 0.0 and 1.0'],
      [
        'transcription_confidence=-0.1',
        'transcription_confidence',
        'A confidence must be a number between 0.0 and 1.0',
      ],
      [
        'classification_confidence=2',
        'classification_confidence',
        'A confidence must be a number between 0.0 and 1.0',
      ],
      [
        'rotation_angle=360',
        'rotation_angle',
        'A rotation angle must be a number between 0 and 359 degrees',
      ],
      [
        'rotation_angle=9.5',
        'rotation_angle',
        'A rotation angle must be a number between 0 and 359 degrees',
      ],
      ['worker_run=abc', 'worker_run', 'Invalid UUID'],
      ['transcription_worker_run=12', 'transcription_worker_run', 'Invalid UUID'],
      ['worker_version=abc', 'worker_version', "Unknown worker version ID: 'abc'"],
      [
        `transcription_worker_version=${UNKNOWN_ID}`,
        'transcription_worker_version',
        `Unknown worker version ID: '${UNKNOWN_ID}'`,
      ],
      [`class_id=${UNKNOWN_ID}`, 'class_id', `Unknown class '${UNKNOWN_ID}'`],
      ['class_id=nope', 'class_id', "Unknown class 'nope'"],
      [
        'metadata_name=folio&metadata_value=ten&metadata_operator=gt',
        'metadata_value',
        'Numeric comparison operators on metadata values require finite numbers',
      ],
      [
        'metadata_name=folio&metadata_value=Infinity&metadata_operator=lte',
        'metadata_value',
        'Numeric comparison operators on metadata values require finite numbers',
      ],
    ])('refuses %s', async (query, attr, detail) => {
      const response = await list(query);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation(attr, detail));
    });

    it.each([
      ['metadata_operator=like', 'metadata_operator', '"like" is not a valid choice.'],
      [
        'confidence=0.5&confidence_operator=ne',
        'confidence_operator',
        '"ne" is not a valid choice.',
      ],
      ['order=position', 'order', '"position" is not a valid choice.'],
      ['order=size', 'order', '"size" is not a valid choice.'],
      ['order_direction=up', 'order_direction', '"up" is not a valid choice.'],
    ])('refuses the choice %s', async (query, attr, detail) => {
      const response = await list(query);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation(attr, detail, 'invalid_choice'));
    });

    it('names every bad parameter in one answer', async () => {
      const response = await list('type=nope&confidence=9&mirrored=perhaps');
      expect(response.statusCode).toBe(400);
      expect(
        response
          .json()
          .errors.map((e: { attr: string }) => e.attr)
          .sort(),
      ).toEqual(['confidence', 'mirrored', 'type']);
    });

    it('orders by name, created or at random, in either direction', async () => {
      expect(names((await list('order=name&order_direction=desc&type=page')).json())).toEqual([
        'page 02',
        'page 01',
      ]);
      await t()
        .app.db.updateTable('elements')
        .set({ created: '2020-01-01T00:00:00.000Z' })
        .where('id', '=', ids['page 02']!)
        .execute();
      expect(names((await list('order=created&type=page')).json())).toEqual(['page 02', 'page 01']);
      expect(names((await list('order=created&order_direction=desc&type=page')).json())).toEqual([
        'page 01',
        'page 02',
      ]);
      const random = (await list('order=random&order_direction=desc')).json();
      expect(names(random).sort()).toEqual(names((await list()).json()).sort());
    });

    it('pages with page and page_size, and refuses a page past the last', async () => {
      const first = (await list('page_size=4')).json();
      expect(first).toMatchObject({ count: 6, number: 1, previous: null });
      expect(names(first)).toEqual(['Note_50%', 'Volume 1', 'Volume 2', 'line a']);
      expect(first.next).toMatch(/page=2/);
      expect(first.next).toMatch(/page_size=4/);
      const second = (await list('page_size=4&page=2')).json();
      expect(names(second)).toEqual(['page 01', 'page 02']);
      expect(second.next).toBeNull();
      const past = await list('page_size=4&page=3');
      expect(past.statusCode).toBe(404);
      expect(past.json().errors[0].detail).toBe('Invalid page.');
      const large = (await list('page_size=500')).json();
      expect(large.results).toHaveLength(6);
    });

    it('answers anonymous callers on public projects only, and 404 to outsiders', async () => {
      expect((await list('', 'anonymous')).statusCode).toBe(404);
      expect((await list('', 'anonymous')).json()).toEqual(NOT_FOUND);
      expect((await list('', 'outsider')).statusCode).toBe(404);
      expect((await list('', 'siteAdmin')).json().count).toBe(6);
      expect((await list('', 'contributor')).json().count).toBe(6);
      const open = await as('anonymous').get(`corpus/${publicId}/elements/`);
      expect(open.statusCode).toBe(200);
      expect(open.json()).toMatchObject({ count: 0, results: [] });
      expect((await as('guest').get('corpus/not-a-uuid/elements/')).statusCode).toBe(404);
      expect((await as('guest').get(`corpus/${UNKNOWN_ID}/elements/`)).statusCode).toBe(404);
    });
  });

  describe('GET /image/{id}/elements/', () => {
    it('lists the readable elements on an image with their zones', async () => {
      const response = await as('guest').get(`image/${imageId}/elements/`);
      expect(response.statusCode).toBe(200);
      expect(names(response.json())).toEqual(['line a', 'page 01', 'page 02']);
      expect(response.json().results[0].zone.image.id).toBe(imageId);
      const paged = await as('guest').get(`image/${imageId}/elements/?page_size=2&page=2`);
      expect(names(paged.json())).toEqual(['page 02']);
    });

    it('hides the image and its elements from callers who cannot read them', async () => {
      expect((await as('outsider').get(`image/${imageId}/elements/`)).statusCode).toBe(404);
      expect((await as('anonymous').get(`image/${imageId}/elements/`)).statusCode).toBe(404);
      expect((await as('guest').get(`image/${UNKNOWN_ID}/elements/`)).statusCode).toBe(404);
      expect((await as('guest').get('image/1234/elements/')).statusCode).toBe(404);
      // A public image (no project) shows only the elements of projects the caller reads.
      const shared = await makeImage(t().app, null);
      await insertElements(t().app, corpusId, [
        { name: 'on shared', type: 'page', image: shared.id },
      ]);
      const outsider = await as('outsider').get(`image/${shared.id}/elements/`);
      expect(outsider.statusCode).toBe(200);
      expect(outsider.json().count).toBe(0);
      expect(names((await as('guest').get(`image/${shared.id}/elements/`)).json())).toEqual([
        'on shared',
      ]);
    });
  });
});
