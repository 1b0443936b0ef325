/**
 * The endpoints ML workers upload their results through: CreateTranscriptions,
 * CreateClassifications and CreateMetaDataBulk, each all or nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActorsAndProjects, makeCorpus, type Actors, type Role } from './actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { insertElements } from './elementsFixtures';
import { makeWorkerRun } from './workerRunFixtures';

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const SUMMARY = 'Worker Fake worker @ 123412';
const EMPTY = (attr: string) => validation(attr, 'This list may not be empty.');
const TOO_MANY = (attr: string) =>
  validation(attr, 'Ensure this field has no more than 1000 elements.');
const PARSE_ERROR = { type: 'client_error', errors: [{ code: 'parse_error', attr: null }] };

describeEachDialect('bulk worker results', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  /** A project every actor but the outsider belongs to, as the private one. */
  let otherId: string;
  /** A project only the outsider belongs to. */
  let elsewhereId: string;
  /** Elements by name: "Public …", "Other …" and "Hidden …" ones in those projects. */
  let ids: Record<string, string>;
  let runId: string;
  let secondRunId: string;
  let publicRunId: string;
  let otherRunId: string;
  let elsewhereRunId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  async function count(table: 'transcriptions' | 'classifications' | 'metadata') {
    const row = await t()
      .app.db.selectFrom(table)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Answers `send()` with `status` and `expected`, and checks nothing was stored in `table`. */
  async function refused(
    table: 'transcriptions' | 'classifications' | 'metadata',
    send: () => ReturnType<ReturnType<typeof as>['post']>,
    status: number,
    expected: unknown,
  ) {
    const before = await count(table);
    const response = await send();
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual(expected);
    expect(await count(table)).toBe(before);
  }

  beforeAll(async () => {
    const { app } = t();
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app, {
      private: 'Letters',
      public: 'Open letters',
    }));
    otherId = await makeCorpus(app, actors, { name: 'Other letters' });
    const elsewhere = await as('outsider').post('corpus/', { name: 'Elsewhere' });
    expect(elsewhere.statusCode).toBe(201);
    elsewhereId = elsewhere.json().id;
    ids = {
      ...(await insertElements(app, privateId, [
        { name: 'Page', type: 'page' },
        { name: 'Line 1', type: 'text_line', parent: 'Page' },
        { name: 'Line 2', type: 'text_line', parent: 'Page' },
        { name: 'Classified', type: 'page' },
        { name: 'Described', type: 'page' },
      ])),
      ...(await insertElements(app, publicId, [{ name: 'Public page', type: 'page' }])),
      ...(await insertElements(app, otherId, [{ name: 'Other page', type: 'page' }])),
      ...(await insertElements(app, elsewhereId, [{ name: 'Hidden page', type: 'page' }])),
    };
    runId = (await makeWorkerRun(app, privateId)).id;
    secondRunId = (await makeWorkerRun(app, privateId, { workerName: 'Second' })).id;
    publicRunId = (await makeWorkerRun(app, publicId)).id;
    otherRunId = (await makeWorkerRun(app, otherId)).id;
    elsewhereRunId = (await makeWorkerRun(app, elsewhereId)).id;
  });

  describe('POST /transcription/bulk/', () => {
    // Elements are named "@<name>" until the request is sent: the tables below are read
    // before the elements exist.
    const line = (key: string, extra: Record<string, unknown> = {}) => ({
      element_id: `@${key}`,
      text: `Text of ${key}`,
      confidence: 0.5,
      ...extra,
    });
    const resolve = (body: unknown): unknown =>
      typeof body === 'string'
        ? body
        : JSON.parse(JSON.stringify(body), (_key, value) =>
            typeof value === 'string' && value.startsWith('@') ? ids[value.slice(1)] : value,
          );
    const post = (body: unknown, role: Role = 'contributor') =>
      as(role).post('transcription/bulk/', resolve(body));

    it("creates a worker run's transcriptions of several elements, listed after", async () => {
      const response = await post({
        worker_run_id: runId,
        transcriptions: [
          { element_id: ids['Line 1'], text: '  Dear Sir, ', confidence: 0.42 },
          {
            element_id: ids['Line 2']!.toUpperCase(),
            text: 'سلام',
            confidence: 1,
            orientation: 'horizontal-rl',
          },
          { element_id: ids['Line 1'], text: 'A second reading', confidence: 0 },
        ],
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        worker_run_id: runId,
        transcriptions: [
          {
            id: expect.stringMatching(UUID),
            element_id: ids['Line 1'],
            text: 'Dear Sir,',
            confidence: 0.42,
            orientation: 'horizontal-lr',
          },
          {
            id: expect.stringMatching(UUID),
            element_id: ids['Line 2'],
            text: 'سلام',
            confidence: 1,
            orientation: 'horizontal-rl',
          },
          {
            id: expect.stringMatching(UUID),
            element_id: ids['Line 1'],
            text: 'A second reading',
            confidence: 0,
            orientation: 'horizontal-lr',
          },
        ],
      });
      const listed = await as('guest').get(
        `element/${ids['Page']}/transcriptions/?recursive=true&worker_run=${runId}`,
      );
      expect(listed.statusCode).toBe(200);
      expect(listed.json().count).toBe(3);
      const byId = new Map(
        listed.json().results.map((item: { id: string }) => [item.id, item] as const),
      );
      for (const created of body.transcriptions) {
        expect(byId.get(created.id)).toMatchObject({
          text: created.text,
          confidence: created.confidence,
          orientation: created.orientation,
          worker_run: { id: runId, summary: SUMMARY },
          element: { id: created.element_id },
        });
      }
    });

    it.each(['owner', 'siteAdmin'] as const)('lets %s create them', async (role) => {
      const response = await post({ worker_run_id: runId, transcriptions: [line('Page')] }, role);
      expect(response.statusCode).toBe(201);
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['anonymous', 'public', 401, NOT_AUTHENTICATED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
      const body =
        which === 'private'
          ? { worker_run_id: runId, transcriptions: [line('Page')] }
          : { worker_run_id: publicRunId, transcriptions: [line('Public page')] };
      await refused('transcriptions', () => post(body, role), status, expected);
    });

    it('answers a worker run the caller cannot see, or an unknown one, as an invalid pk', async () => {
      for (const [role, workerRun] of [
        ['outsider', runId],
        ['contributor', elsewhereRunId],
        ['contributor', UNKNOWN_ID],
      ] as const) {
        await refused(
          'transcriptions',
          () => post({ worker_run_id: workerRun, transcriptions: [line('Page')] }, role),
          400,
          invalidPk('worker_run_id', workerRun),
        );
      }
    });

    it("refuses elements outside the worker run's project, and stores none of the list", async () => {
      await refused(
        'transcriptions',
        () =>
          post({
            worker_run_id: runId,
            transcriptions: [
              line('Line 1'),
              line('Other page'),
              line('Line 2'),
              line('Hidden page'),
              { ...line('Line 1'), element_id: UNKNOWN_ID },
            ],
          }),
        400,
        {
          type: 'validation_error',
          errors: [
            {
              code: 'invalid',
              detail: 'The element must belong to the same project as the worker run.',
              attr: 'transcriptions.1.element_id',
            },
            ...invalidPk('transcriptions.3.element_id', ids['Hidden page']!).errors,
            ...invalidPk('transcriptions.4.element_id', UNKNOWN_ID).errors,
          ],
        },
      );
    });

    it('refuses a worker run of another project than the elements', async () => {
      await refused(
        'transcriptions',
        () => post({ worker_run_id: otherRunId, transcriptions: [line('Page')] }),
        400,
        validation(
          'transcriptions.0.element_id',
          'The element must belong to the same project as the worker run.',
        ),
      );
    });

    it.each([
      ['an empty list', { transcriptions: [] }, EMPTY('transcriptions')],
      [
        'a list of 1001',
        { transcriptions: Array.from({ length: 1001 }, () => line('Page')) },
        TOO_MANY('transcriptions'),
      ],
      [
        'no worker run',
        { worker_run_id: undefined, transcriptions: [line('Page')] },
        validation('worker_run_id', 'This field is required.', 'required'),
      ],
      [
        'a worker run that is no UUID',
        { worker_run_id: 'run', transcriptions: [line('Page')] },
        validation('worker_run_id', 'Must be a valid UUID.'),
      ],
      [
        'an element that is no UUID',
        { transcriptions: [line('Page', { element_id: 'nope' })] },
        validation('transcriptions.0.element_id', 'Must be a valid UUID.'),
      ],
      [
        'no confidence',
        { transcriptions: [line('Page', { confidence: undefined })] },
        validation('transcriptions.0.confidence', 'This field is required.', 'required'),
      ],
      [
        'a confidence above 1',
        { transcriptions: [line('Page', { confidence: 1.5 })] },
        validation(
          'transcriptions.0.confidence',
          'Ensure this value is less than or equal to 1.',
          'max_value',
        ),
      ],
      [
        'a blank text',
        { transcriptions: [line('Page'), line('Page', { text: '  ' })] },
        validation('transcriptions.1.text', 'This field may not be blank.', 'blank'),
      ],
      [
        'an unknown orientation',
        { transcriptions: [line('Page', { orientation: 'diagonal' })] },
        validation(
          'transcriptions.0.orientation',
          '"diagonal" is not a valid choice.',
          'invalid_choice',
        ),
      ],
      [
        'a single transcription instead of a list',
        { transcriptions: line('Page') },
        validation('transcriptions', 'Expected a list of items but got type "dict".'),
      ],
    ])('answers 400 to %s', async (_label, body, expected) => {
      await refused('transcriptions', () => post({ worker_run_id: runId, ...body }), 400, expected);
    });

    it('answers malformed JSON and a list body with a 400', async () => {
      const malformed = await post('{"worker_run_id": ');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject(PARSE_ERROR);
      await refused(
        'transcriptions',
        () => post([line('Page')]),
        400,
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      );
    });
  });

  describe('POST /classification/bulk/', () => {
    let classes: Record<string, string>;
    const post = (body: unknown, role: Role = 'contributor') =>
      as(role).post('classification/bulk/', body);

    async function makeClass(corpusId: string, name: string): Promise<string> {
      const response = await as('siteAdmin').post(`corpus/${corpusId}/classes/`, { name });
      expect(response.statusCode).toBe(201);
      return response.json().id;
    }

    beforeAll(async () => {
      classes = {
        dog: await makeClass(privateId, 'dog'),
        cat: await makeClass(privateId, 'cat'),
        bird: await makeClass(privateId, 'bird'),
        fish: await makeClass(privateId, 'fish'),
        'public dog': await makeClass(publicId, 'dog'),
        'other dog': await makeClass(otherId, 'dog'),
        'hidden dog': await makeClass(elsewhereId, 'dog'),
      };
    });

    it("creates a worker run's classifications of an element, pending, shown on it", async () => {
      const response = await post({
        parent: ids['Classified'],
        worker_run_id: runId,
        classifications: [
          { ml_class: classes['dog'], confidence: 0.9, high_confidence: true },
          { ml_class: classes['cat']!.toUpperCase(), confidence: 0.1 },
        ],
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        parent: ids['Classified'],
        worker_run_id: runId,
        classifications: [
          {
            id: expect.stringMatching(UUID),
            ml_class: classes['dog'],
            confidence: 0.9,
            high_confidence: true,
            state: 'pending',
          },
          {
            id: expect.stringMatching(UUID),
            ml_class: classes['cat'],
            confidence: 0.1,
            high_confidence: false,
            state: 'pending',
          },
        ],
      });
      const element = await as('guest').get(`element/${ids['Classified']}/`);
      expect(element.statusCode).toBe(200);
      const shown = element.json().classifications;
      expect(shown).toHaveLength(2);
      expect(shown).toEqual(
        expect.arrayContaining([
          {
            id: body.classifications[0].id,
            ml_class: { id: classes['dog'], name: 'dog' },
            state: 'pending',
            confidence: 0.9,
            high_confidence: true,
            worker_run: { id: runId, summary: SUMMARY },
          },
          {
            id: body.classifications[1].id,
            ml_class: { id: classes['cat'], name: 'cat' },
            state: 'pending',
            confidence: 0.1,
            high_confidence: false,
            worker_run: { id: runId, summary: SUMMARY },
          },
        ]),
      );
    });

    it('refuses a class given twice in the list', async () => {
      await refused(
        'classifications',
        () =>
          post({
            parent: ids['Page'],
            worker_run_id: runId,
            classifications: [
              { ml_class: classes['bird'], confidence: 0.5 },
              { ml_class: classes['bird'], confidence: 0.6 },
            ],
          }),
        400,
        validation(
          'classifications',
          'Duplicated ML classes are not allowed from the same worker run',
          'unique',
        ),
      );
    });

    it('refuses a class the worker run already gave the element, but not another run nor a manual one', async () => {
      const first = await post({
        parent: ids['Page'],
        worker_run_id: runId,
        classifications: [{ ml_class: classes['fish'], confidence: 0.5 }],
      });
      expect(first.statusCode).toBe(201);
      await refused(
        'classifications',
        () =>
          post({
            parent: ids['Page'],
            worker_run_id: runId,
            classifications: [
              { ml_class: classes['bird'], confidence: 0.5 },
              { ml_class: classes['fish'], confidence: 0.7 },
            ],
          }),
        400,
        validation(
          'classifications.1.non_field_errors',
          'This classification already exists on this element.',
          'unique',
        ),
      );
      const manual = await as('contributor').post('classifications/', {
        element: ids['Page'],
        ml_class: classes['bird'],
      });
      expect(manual.statusCode).toBe(201);
      const second = await post({
        parent: ids['Page'],
        worker_run_id: secondRunId,
        classifications: [
          { ml_class: classes['fish'], confidence: 0.5 },
          { ml_class: classes['bird'], confidence: 0.5 },
        ],
      });
      expect(second.statusCode).toBe(201);
    });

    it("refuses classes outside the parent's project, naming each", async () => {
      await refused(
        'classifications',
        () =>
          post({
            parent: ids['Page'],
            worker_run_id: runId,
            classifications: [
              { ml_class: classes['dog'], confidence: 0.5 },
              { ml_class: classes['other dog'], confidence: 0.5 },
              { ml_class: classes['hidden dog'], confidence: 0.5 },
              { ml_class: UNKNOWN_ID, confidence: 0.5 },
            ],
          }),
        400,
        {
          type: 'validation_error',
          errors: [
            {
              code: 'invalid',
              detail: 'The ML class must belong to the same project as the element.',
              attr: 'classifications.1.ml_class',
            },
            ...invalidPk('classifications.2.ml_class', classes['hidden dog']!).errors,
            ...invalidPk('classifications.3.ml_class', UNKNOWN_ID).errors,
          ],
        },
      );
    });

    it.each([
      ['another project', () => otherRunId],
      ['a project the caller cannot read', () => elsewhereRunId],
      ['nothing', () => UNKNOWN_ID],
    ])('refuses a worker run of %s', async (_label, workerRun) => {
      await refused(
        'classifications',
        () =>
          post({
            parent: ids['Page'],
            worker_run_id: workerRun(),
            classifications: [{ ml_class: classes['dog'], confidence: 0.5 }],
          }),
        400,
        invalidPk('worker_run_id', workerRun()),
      );
    });

    it.each(['owner', 'siteAdmin'] as const)('lets %s create them', async (role) => {
      const response = await post(
        {
          parent: ids['Line 1'],
          worker_run_id: role === 'owner' ? runId : secondRunId,
          classifications: [{ ml_class: classes['dog'], confidence: 0.5 }],
        },
        role,
      );
      expect(response.statusCode).toBe(201);
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['anonymous', 'public', 401, NOT_AUTHENTICATED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'private', 400, null],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
      const body =
        which === 'private'
          ? {
              parent: ids['Line 2'],
              worker_run_id: runId,
              classifications: [{ ml_class: classes['dog'], confidence: 0.5 }],
            }
          : {
              parent: ids['Public page'],
              worker_run_id: publicRunId,
              classifications: [{ ml_class: classes['public dog'], confidence: 0.5 }],
            };
      // An outsider learns nothing of a private element: it reads as unknown.
      await refused(
        'classifications',
        () => post(body, role),
        status,
        expected ?? invalidPk('parent', body.parent!),
      );
    });

    it.each([
      ['an empty list', { classifications: [] }, EMPTY('classifications')],
      [
        'a list of 1001',
        {
          classifications: Array.from({ length: 1001 }, () => ({
            ml_class: UNKNOWN_ID,
            confidence: 0.5,
          })),
        },
        TOO_MANY('classifications'),
      ],
      [
        'no parent',
        { parent: undefined },
        validation('parent', 'This field is required.', 'required'),
      ],
      [
        'a parent that is no UUID',
        { parent: 'nope' },
        validation('parent', 'Must be a valid UUID.'),
      ],
      ['an unknown parent', { parent: UNKNOWN_ID }, invalidPk('parent', UNKNOWN_ID)],
      [
        'no worker run',
        { worker_run_id: null },
        validation('worker_run_id', 'This field may not be null.', 'null'),
      ],
      [
        'a class that is no UUID',
        { classifications: [{ ml_class: 'dog', confidence: 0.5 }] },
        validation('classifications.0.ml_class', 'Must be a valid UUID.'),
      ],
      [
        'no confidence',
        { classifications: [{ ml_class: UNKNOWN_ID }] },
        validation('classifications.0.confidence', 'This field is required.', 'required'),
      ],
      [
        'a negative confidence',
        { classifications: [{ ml_class: UNKNOWN_ID, confidence: -0.1 }] },
        validation(
          'classifications.0.confidence',
          'Ensure this value is greater than or equal to 0.',
          'min_value',
        ),
      ],
      [
        'a high confidence that is no boolean',
        { classifications: [{ ml_class: UNKNOWN_ID, confidence: 0.5, high_confidence: 'yes' }] },
        validation('classifications.0.high_confidence', 'Must be a valid boolean.'),
      ],
    ])('answers 400 to %s', async (_label, body, expected) => {
      await refused(
        'classifications',
        () =>
          post({
            parent: ids['Page'],
            worker_run_id: runId,
            classifications: [{ ml_class: classes['dog'], confidence: 0.5 }],
            ...body,
          }),
        400,
        expected,
      );
    });

    it('answers malformed JSON with a parse error', async () => {
      const response = await post('{"parent": ');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject(PARSE_ERROR);
    });
  });

  describe('POST /element/{id}/metadata/bulk/', () => {
    const post = (elementId: string, body: unknown, role: Role = 'contributor') =>
      as(role).post(`element/${elementId}/metadata/bulk/`, body);

    beforeAll(async () => {
      for (const corpusId of [privateId, publicId]) {
        for (const [name, type] of [
          ['Folio', 'text'],
          ['Date', 'date'],
          ['Count', 'numeric'],
          ['Link', 'url'],
        ]) {
          const response = await as('owner').post(`corpus/${corpusId}/allowed-metadata/`, {
            name,
            type,
          });
          expect(response.statusCode).toBe(201);
        }
      }
    });

    it("creates a worker run's metadata of an element, as ListElementMetaData shows them", async () => {
      const response = await post(ids['Described']!, {
        worker_run_id: runId,
        metadata_list: [
          { type: 'text', name: 'Folio', value: ' 12 recto ' },
          { type: 'date', name: 'Date', value: '1850-03' },
          { type: 'numeric', name: 'Count', value: 42 },
        ],
      });
      expect(response.statusCode).toBe(201);
      const worker_run = { id: runId, summary: SUMMARY };
      expect(response.json()).toEqual({
        worker_run_id: runId,
        metadata_list: [
          {
            id: expect.stringMatching(UUID),
            type: 'text',
            name: 'Folio',
            value: '12 recto',
            dates: [],
            worker_run,
          },
          {
            id: expect.stringMatching(UUID),
            type: 'date',
            name: 'Date',
            value: '1850-03',
            dates: [{ type: 'exact', year: 1850, month: 3 }],
            worker_run,
          },
          {
            id: expect.stringMatching(UUID),
            type: 'numeric',
            name: 'Count',
            value: '42',
            dates: [],
            worker_run,
          },
        ],
      });
      const listed = await as('guest').get(`element/${ids['Described']}/metadata/`);
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toHaveLength(3);
      expect(listed.json()).toEqual(expect.arrayContaining(response.json().metadata_list));
    });

    it('creates manual metadata without a worker run', async () => {
      const response = await post(ids['Page']!, {
        metadata_list: [{ type: 'url', name: 'Link', value: 'https://example.org/a' }],
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        worker_run_id: null,
        metadata_list: [
          {
            id: expect.stringMatching(UUID),
            type: 'url',
            name: 'Link',
            value: 'https://example.org/a',
            dates: [],
            worker_run: null,
          },
        ],
      });
    });

    it('checks each value as CreateMetaData does, names each bad one, and stores none', async () => {
      await refused(
        'metadata',
        () =>
          post(ids['Page']!, {
            worker_run_id: runId,
            metadata_list: [
              { type: 'text', name: 'Folio', value: 'fine' },
              { type: 'numeric', name: 'Count', value: 'many' },
              { type: 'date', name: 'Date', value: '1850-13' },
              { type: 'url', name: 'Link', value: 'ftp://example.org' },
              { type: 'text', name: 'Secret', value: 'not allowed' },
            ],
          }),
        400,
        {
          type: 'validation_error',
          errors: [
            {
              code: 'invalid',
              detail: 'Value must be a valid number',
              attr: 'metadata_list.1.value',
            },
            { code: 'invalid', detail: 'This date is invalid', attr: 'metadata_list.2.value' },
            {
              code: 'invalid',
              detail: 'Only HTTP and HTTPS URLs are allowed',
              attr: 'metadata_list.3.value',
            },
            {
              code: 'not_allowed',
              detail: 'This name/type combination is not allowed',
              attr: 'metadata_list.4.non_field_errors',
            },
          ],
        },
      );
    });

    it('lets a site admin write names and types outside the allowed list', async () => {
      const response = await post(
        ids['Page']!,
        { metadata_list: [{ type: 'reference', name: 'Shelfmark', value: 'MS 42' }] },
        'siteAdmin',
      );
      expect(response.statusCode).toBe(201);
    });

    it.each([
      [
        'an unknown type',
        [{ type: 'colour', name: 'Folio', value: 'x' }],
        validation('metadata_list.0.type', 'Invalid metadata type'),
      ],
      [
        'an empty value',
        [{ type: 'text', name: 'Folio', value: '   ' }],
        validation('metadata_list.0.value', 'Value may not be empty'),
      ],
      [
        'no name',
        [{ type: 'text', value: 'x' }],
        validation('metadata_list.0.name', 'This field is required.', 'required'),
      ],
      ['an empty list', [], EMPTY('metadata_list')],
      [
        'a list of 1001',
        Array.from({ length: 1001 }, () => ({ type: 'text', name: 'Folio', value: 'x' })),
        TOO_MANY('metadata_list'),
      ],
    ])('answers 400 to %s', async (_label, list, expected) => {
      await refused(
        'metadata',
        () => post(ids['Page']!, { worker_run_id: runId, metadata_list: list }),
        400,
        expected,
      );
    });

    it.each([
      ['another project', () => otherRunId],
      ['a project the caller cannot read', () => elsewhereRunId],
      ['nothing', () => UNKNOWN_ID],
    ])('refuses a worker run of %s', async (_label, workerRun) => {
      await refused(
        'metadata',
        () =>
          post(ids['Page']!, {
            worker_run_id: workerRun(),
            metadata_list: [{ type: 'text', name: 'Folio', value: 'x' }],
          }),
        400,
        invalidPk('worker_run_id', workerRun()),
      );
    });

    it('refuses a worker run that is no UUID', async () => {
      await refused(
        'metadata',
        () =>
          post(ids['Page']!, {
            worker_run_id: 'run',
            metadata_list: [{ type: 'text', name: 'Folio', value: 'x' }],
          }),
        400,
        validation('worker_run_id', 'Must be a valid UUID.'),
      );
    });

    it('lets an admin create them', async () => {
      const response = await post(
        ids['Page']!,
        { worker_run_id: runId, metadata_list: [{ type: 'text', name: 'Folio', value: 'x' }] },
        'owner',
      );
      expect(response.statusCode).toBe(201);
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['anonymous', 'public', 401, NOT_AUTHENTICATED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'private', 404, NOT_FOUND],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
      const elementId = which === 'private' ? ids['Page']! : ids['Public page']!;
      await refused(
        'metadata',
        () =>
          post(elementId, { metadata_list: [{ type: 'text', name: 'Folio', value: 'x' }] }, role),
        status,
        expected,
      );
    });

    it.each([UNKNOWN_ID, 'nope'])('answers 404 for the element %s', async (id) => {
      await refused(
        'metadata',
        () => post(id, { metadata_list: [{ type: 'text', name: 'Folio', value: 'x' }] }),
        404,
        NOT_FOUND,
      );
    });

    it('answers malformed JSON with a parse error', async () => {
      const response = await post(ids['Page']!, '{"metadata_list": ');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject(PARSE_ERROR);
    });
  });
});
