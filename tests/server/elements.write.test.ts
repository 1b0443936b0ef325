import { beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '../../server/db/schema';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
import { UNKNOWN_ID, UUID, denied, invalidPk, validation } from './expectedErrors';
import { elementCount, insertElements, makeImage, names } from './elementsFixtures';

const SQUARE = [
  [10, 10],
  [110, 10],
  [110, 110],
  [10, 110],
];

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');

describeEachDialect('element writes', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  let otherId: string;
  let hiddenId: string;
  let image: Image;
  let hiddenImage: Image;
  let ids: Record<string, string>;
  let otherIds: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const create = (body: unknown, role: Role = 'contributor', query = '') =>
    as(role).post(`elements/create/${query}`, body);
  const patch = (id: string, body: unknown, role: Role = 'contributor') =>
    as(role).patch(`element/${id}/`, body);

  beforeAll(async () => {
    const { app } = t();
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Writes' });
    otherId = await makeCorpus(app, actors, { name: 'Other' });
    // A project only the site admin and the outsider's own role cannot see: nobody is a member.
    const hidden = await clientFor(app, actors, 'outsider').post('corpus/', { name: 'Hidden' });
    hiddenId = hidden.json().id;
    image = await makeImage(app, corpusId, 1000, 500);
    hiddenImage = await makeImage(app, hiddenId);
    ids = await insertElements(app, corpusId, [
      { name: 'Volume', type: 'folder' },
      { name: 'Page', type: 'page', parent: 'Volume', image: image.id },
      { name: 'Loose', type: 'paragraph' },
    ]);
    otherIds = await insertElements(app, otherId, [{ name: 'Elsewhere', type: 'folder' }]);
  });

  describe('POST /elements/create/', () => {
    it('creates a top-level folder and answers the element', async () => {
      const response = await create({ corpus: corpusId, type: 'folder', name: '  New folder ' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        type: 'folder',
        type_id: expect.stringMatching(UUID),
        name: 'New folder',
        corpus: { id: corpusId, name: 'Writes', public: false },
        thumbnail_url: null,
        zone: null,
        rotation_angle: 0,
        mirrored: false,
        confidence: null,
        created: expect.any(String),
        creator: actors.contributor.email,
        worker_run: null,
        has_children: false,
        rights: ['read', 'write'],
        classifications: [],
        metadata_count: 0,
      });
      const top = await as('guest').get(`corpus/${corpusId}/elements/?top_level=true&type=folder`);
      expect(names(top.json())).toContain('New folder');
    });

    it('appends children last under their parent', async () => {
      for (const name of ['b child', 'a child']) {
        const response = await create({ corpus: corpusId, type: 'page', name, parent: ids.Volume });
        expect(response.statusCode).toBe(201);
      }
      const children = await as('guest').get(`elements/${ids.Volume}/children/`);
      expect(names(children.json())).toEqual(['Page', 'b child', 'a child']);
    });

    it('stores a normalized polygon on the given image', async () => {
      const response = await create({
        corpus: corpusId,
        type: 'text_line',
        name: 'line',
        image: image.id,
        polygon: [
          [10.4, 10],
          [110, 10],
          [110, 10],
          [110, 110.6],
          [10, 110],
        ],
        confidence: 0.75,
        rotation_angle: 180,
        mirrored: true,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        confidence: 0.75,
        rotation_angle: 180,
        mirrored: true,
        zone: {
          polygon: [
            [10, 10],
            [110, 10],
            [110, 111],
            [10, 110],
            [10, 10],
          ],
          image: { id: image.id, width: 1000, height: 500 },
        },
      });
    });

    it("takes the parent's image for a polygon given without one", async () => {
      const response = await create({
        corpus: corpusId,
        type: 'text_line',
        name: 'on parent image',
        parent: ids.Page,
        polygon: SQUARE,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().zone.image.id).toBe(image.id);
    });

    it('gives an element on an image without polygon the whole image', async () => {
      const response = await create({
        corpus: corpusId,
        type: 'page',
        name: 'whole',
        image: image.id,
      });
      expect(response.json().zone.polygon).toEqual([
        [0, 0],
        [0, 500],
        [1000, 500],
        [1000, 0],
        [0, 0],
      ]);
    });

    it('answers only the id with slim_output', async () => {
      const response = await create(
        { corpus: corpusId, type: 'paragraph', name: 'slim' },
        'contributor',
        '?slim_output=true',
      );
      expect(response.statusCode).toBe(201);
      expect(Object.keys(response.json())).toEqual(['id']);
    });

    const polygonCases: [string, unknown, string][] = [
      [
        'negative',
        [
          [-5, 0],
          [10, 0],
          [10, 10],
        ],
        'A polygon cannot have negative coordinates.',
      ],
      [
        'two points',
        [
          [0, 0],
          [10, 10],
          [0, 0],
        ],
        'This polygon does not have at least three unique points.',
      ],
      [
        '164 points',
        Array.from({ length: 164 }, (_, i) => [
          Math.round(400 + 200 * Math.cos((2 * Math.PI * i) / 164) * 1.5),
          Math.round(250 + 200 * Math.sin((2 * Math.PI * i) / 164)),
        ]),
        'This polygon has more than 163 distinct points.',
      ],
      [
        'flat',
        [
          [0, 0],
          [50, 1],
          [100, 0],
        ],
        'This polygon is too small.',
      ],
      [
        'outside',
        [
          [900, 0],
          [1001, 0],
          [1001, 100],
        ],
        'A polygon must be inside its image.',
      ],
      [
        'bad points',
        [
          [0, 0],
          ['a', 1],
          [5, 5],
        ],
        'A polygon must be a list of [x, y] points, each coordinate a number.',
      ],
    ];

    it.each(polygonCases)(
      'refuses a %s polygon on attr polygon',
      async (_label, polygon, detail) => {
        const before = await elementCount(t().app);
        const response = await create({
          corpus: corpusId,
          type: 'text_line',
          name: 'bad',
          image: image.id,
          polygon,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(validation('polygon', detail));
        expect(await elementCount(t().app)).toBe(before);
      },
    );

    it.each([
      ['a polygon without image', { polygon: SQUARE }, 'polygon'],
      ['a polygon under a parent without image', { polygon: SQUARE, parent: 'Volume' }, 'polygon'],
      ['an unknown type', { type: 'volume' }, 'type'],
      ['an unknown parent', { parent: UNKNOWN_ID }, 'parent'],
      ['a parent of another project', { parent: 'Elsewhere' }, 'parent'],
      ['an unknown image', { image: UNKNOWN_ID }, 'image'],
      ['an image the caller cannot read', { image: 'hidden' }, 'image'],
      ['a worker run that does not exist', { worker_run_id: UNKNOWN_ID }, 'worker_run_id'],
      ['a non-UUID parent', { parent: 'Volume-1' }, 'parent'],
      ['a name as a number', { name: 5 }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a confidence above 1', { confidence: 1.5 }, 'confidence'],
      ['a rotation of 360', { rotation_angle: 360 }, 'rotation_angle'],
      ['a polygon as text', { polygon: '0,0 1,1 2,2', image: 'image' }, 'polygon'],
    ])('refuses %s on its attr, storing nothing', async (_label, change, attr) => {
      const before = await elementCount(t().app);
      const resolve = (value: unknown) =>
        value === 'Elsewhere'
          ? otherIds.Elsewhere
          : value === 'Volume'
            ? ids.Volume
            : value === 'hidden'
              ? hiddenImage.id
              : value === 'image'
                ? image.id
                : value;
      const body: Record<string, unknown> = { corpus: corpusId, type: 'page', name: 'x' };
      for (const [key, value] of Object.entries(change)) body[key] = resolve(value);
      const response = await create(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().type).toBe('validation_error');
      expect(response.json().errors.map((e: { attr: string }) => e.attr)).toEqual([attr]);
      expect(await elementCount(t().app)).toBe(before);
    });

    it('words unknown ids as DRF does, without telling whether they exist', async () => {
      const unknown = await create({
        corpus: corpusId,
        type: 'page',
        name: 'x',
        image: UNKNOWN_ID,
      });
      const hidden = await create({
        corpus: corpusId,
        type: 'page',
        name: 'x',
        image: hiddenImage.id,
      });
      expect(unknown.json()).toEqual(invalidPk('image', UNKNOWN_ID));
      expect(hidden.json().errors[0].detail).toBe(
        `Invalid pk "${hiddenImage.id}" - object does not exist.`,
      );
      const type = await create({ corpus: corpusId, type: 'volume', name: 'x' });
      expect(type.json().errors[0].detail).toBe("Type 'volume' not found.");
      const required = await create({ corpus: corpusId, type: 'page' });
      expect(required.json()).toEqual(validation('name', 'This field is required.', 'required'));
      const uuid = await create({ corpus: 'abc', type: 'page', name: 'x' });
      expect(uuid.json()).toEqual(validation('corpus', 'Must be a valid UUID.'));
    });

    it('checks the project: unreadable is a bad value, read-only is forbidden', async () => {
      for (const corpus of [UNKNOWN_ID, hiddenId]) {
        const response = await create({ corpus, type: 'page', name: 'x' });
        expect(response.statusCode).toBe(400);
        expect(response.json().errors[0].attr).toBe('corpus');
      }
      const guest = await create({ corpus: corpusId, type: 'page', name: 'x' }, 'guest');
      expect(guest.statusCode).toBe(403);
      expect(guest.json()).toEqual(NOT_CONTRIBUTOR);
      expect(
        (await create({ corpus: corpusId, type: 'page', name: 'x' }, 'anonymous')).statusCode,
      ).toBe(401);
      expect(
        (await create({ corpus: corpusId, type: 'page', name: 'x' }, 'siteAdmin')).statusCode,
      ).toBe(201);
      expect(
        (await create({ corpus: corpusId, type: 'page', name: 'x' }, 'owner')).statusCode,
      ).toBe(201);
    });

    it('refuses malformed JSON and non-object bodies', async () => {
      const malformed = await create('{"corpus": ');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().errors[0].code).toBe('parse_error');
      const list = await create([1, 2]);
      expect(list.statusCode).toBe(400);
      expect(list.json().errors[0].attr).toBe('non_field_errors');
    });
  });

  describe('PATCH /element/{id}/', () => {
    it('renames, retypes and turns an element', async () => {
      const [id] = Object.values(
        await insertElements(t().app, corpusId, [
          { name: 'to edit', type: 'page', image: image.id },
        ]),
      );
      const response = await patch(id!, {
        name: 'edited',
        type: 'paragraph',
        rotation_angle: 270,
        mirrored: true,
        confidence: 0.25,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id,
        name: 'edited',
        type: 'paragraph',
        rotation_angle: 270,
        mirrored: true,
        confidence: 0.25,
        rights: ['read', 'write'],
      });
      expect((await as('guest').get(`element/${id}/`)).json().name).toBe('edited');
    });

    it('changes the polygon inside the image', async () => {
      const response = await patch(ids.Page!, { polygon: SQUARE });
      expect(response.statusCode).toBe(200);
      expect(response.json().zone.polygon).toEqual([...SQUARE, SQUARE[0]]);
      const outside = await patch(ids.Page!, {
        polygon: [
          [0, 0],
          [1200, 0],
          [1200, 10],
        ],
      });
      expect(outside.json()).toEqual(validation('polygon', 'A polygon must be inside its image.'));
      const tooSmall = await patch(ids.Page!, {
        polygon: [
          [0, 0],
          [1, 0],
          [1, 50],
        ],
      });
      expect(tooSmall.json()).toEqual(validation('polygon', 'This polygon is too small.'));
      expect((await as('guest').get(`element/${ids.Page}/`)).json().zone.polygon).toEqual([
        ...SQUARE,
        SQUARE[0],
      ]);
    });

    it('needs an image for a polygon, and moves zones with the image', async () => {
      const noImage = await patch(ids.Loose!, { polygon: SQUARE });
      expect(noImage.statusCode).toBe(400);
      expect(noImage.json().errors[0].attr).toBe('polygon');
      const other = await makeImage(t().app, corpusId, 300, 200);
      const placed = await patch(ids.Loose!, { image: other.id });
      expect(placed.json().zone.polygon).toEqual([
        [0, 0],
        [0, 200],
        [300, 200],
        [300, 0],
        [0, 0],
      ]);
      const both = await patch(ids.Loose!, {
        image: image.id,
        polygon: [
          [500, 300],
          [900, 300],
          [900, 400],
        ],
      });
      expect(both.json().zone).toMatchObject({ image: { id: image.id } });
      const removed = await patch(ids.Loose!, { image: null });
      expect(removed.json().zone).toBeNull();
      const hidden = await patch(ids.Loose!, { image: hiddenImage.id });
      expect(hidden.json().errors[0]).toMatchObject({ attr: 'image', code: 'does_not_exist' });
    });

    it.each([
      [{ type: 'volume' }, 'type'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(251) }, 'name'],
      [{ rotation_angle: 360 }, 'rotation_angle'],
      [{ rotation_angle: 1.5 }, 'rotation_angle'],
      [{ mirrored: 'yes' }, 'mirrored'],
      [{ polygon: { x: 1 } }, 'polygon'],
      [{ image: 'abc' }, 'image'],
    ])('refuses %j and changes nothing', async (body, attr) => {
      const before = (await as('guest').get(`element/${ids.Volume}/`)).json();
      const response = await patch(ids.Volume!, { name: 'renamed', ...body });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.map((e: { attr: string }) => e.attr)).toEqual([attr]);
      expect((await as('guest').get(`element/${ids.Volume}/`)).json()).toEqual(before);
    });

    it('needs write rights; outsiders and bad ids get 404', async () => {
      expect((await patch(ids.Volume!, { name: 'x' }, 'guest')).json()).toEqual(NOT_CONTRIBUTOR);
      expect((await patch(ids.Volume!, { name: 'x' }, 'anonymous')).statusCode).toBe(401);
      expect((await patch(ids.Volume!, { name: 'x' }, 'outsider')).statusCode).toBe(404);
      expect((await patch(UNKNOWN_ID, { name: 'x' })).statusCode).toBe(404);
      expect((await patch('nope', { name: 'x' })).statusCode).toBe(404);
      expect((await as('guest').get(`element/${ids.Volume}/`)).json().name).toBe('Volume');
      expect((await patch(ids.Volume!, { name: 'Volume' }, 'siteAdmin')).statusCode).toBe(200);
    });
  });
});
