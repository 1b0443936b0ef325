import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from './harness';
import { clientFor, makeActorsAndProjects, makeCorpus, type Actors, type Role } from './actors';
import {
  INVALID_PAGE,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  REFUSED_TO_NON_ADMINS,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { insertElements } from './elementsFixtures';
import { makeWorkerRun } from './workerRunFixtures';

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const NOT_ALLOWED = validation(
  'non_field_errors',
  'This name/type combination is not allowed',
  'not_allowed',
);
const PROTECTED_EDIT = denied('Only an administrator can edit this protected metadata');
const PROTECTED_DELETE = denied('Only an administrator can delete this protected metadata');

async function metadataRow(app: FastifyInstance, id: string) {
  return app.db.selectFrom('metadata').selectAll().where('id', '=', id).executeTakeFirst();
}

async function metadataCount(app: FastifyInstance, elementId: string): Promise<number> {
  const rows = await app.db
    .selectFrom('metadata')
    .select('id')
    .where('element_id', '=', elementId)
    .execute();
  return rows.length;
}

/** The (name, type) pairs every project of the suite allows, one per type. */
const ALLOWED = [
  ['Folio', 'text'],
  ['Notes', 'markdown'],
  ['Date', 'date'],
  ['Place', 'location'],
  ['Shelfmark', 'reference'],
  ['Count', 'numeric'],
  ['Link', 'url'],
] as const;

describeEachDialect('metadata', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let publicIds: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);

  async function allow(corpusId: string, name: string, type: string): Promise<string> {
    const response = await as('owner').post(`corpus/${corpusId}/allowed-metadata/`, {
      name,
      type,
    });
    expect(response.statusCode).toBe(201);
    return response.json().id;
  }

  async function addMetadata(
    elementId: string,
    body: Record<string, unknown>,
    role: Role = 'contributor',
  ): Promise<string> {
    const response = await as(role).post(`element/${elementId}/metadata/`, body);
    expect(response.statusCode).toBe(201);
    return response.json().id;
  }

  beforeAll(async () => {
    const app = t().app;
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app));
    for (const corpusId of [privateId, publicId]) {
      for (const [name, type] of ALLOWED) await allow(corpusId, name, type);
    }
    ids = await insertElements(app, privateId, [
      { name: 'Volume', type: 'folder' },
      { name: 'Register', type: 'folder', parent: 'Volume' },
      { name: 'Page', type: 'page', parent: 'Register' },
      { name: 'Other', type: 'page' },
    ]);
    publicIds = await insertElements(app, publicId, [{ name: 'Open page', type: 'page' }]);
  });

  describe('allowed metadata', () => {
    let listedId: string;

    beforeAll(async () => {
      listedId = await makeCorpus(t().app, actors, { name: 'Listed', public: true });
      for (const [name, type] of [
        ['place', 'location'],
        ['date', 'text'],
        ['date', 'date'],
        ['author', 'text'],
      ]) {
        await allow(listedId, name!, type!);
      }
    });

    it('lists them by name and type, paginated, to whoever reads the project', async () => {
      const response = await as('anonymous').get(
        `corpus/${listedId}/allowed-metadata/?page_size=3`,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        count: 4,
        number: 1,
        previous: null,
        next: expect.stringContaining(`allowed-metadata/?page_size=3&page=2`),
        results: [
          { id: expect.stringMatching(UUID), name: 'author', type: 'text' },
          { id: expect.stringMatching(UUID), name: 'date', type: 'date' },
          { id: expect.stringMatching(UUID), name: 'date', type: 'text' },
        ],
      });
      const past = await as('guest').get(`corpus/${listedId}/allowed-metadata/?page=3`);
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual(INVALID_PAGE);
      for (const [role, id] of [
        ['outsider', privateId],
        ['anonymous', privateId],
        ['siteAdmin', 'not-a-uuid'],
      ] as const) {
        const hidden = await as(role).get(`corpus/${id}/allowed-metadata/`);
        expect(hidden.statusCode).toBe(404);
        expect(hidden.json()).toEqual(NOT_FOUND);
      }
    });

    it('creates one, refuses it twice, and checks the type and name', async () => {
      const response = await as('owner').post(`corpus/${listedId}/allowed-metadata/`, {
        name: ' Scribe ',
        type: 'text',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Scribe',
        type: 'text',
      });
      const again = await as('owner').post(`corpus/${listedId}/allowed-metadata/`, {
        name: 'Scribe',
        type: 'text',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(
        validation(
          'non_field_errors',
          'This name and type are already allowed in this project.',
          'unique',
        ),
      );
      for (const [body, expected] of [
        [{ name: 'X', type: 'html' }, validation('type', 'Invalid metadata type')],
        [{ name: 'X' }, validation('type', 'This field is required.', 'required')],
        [{ name: '', type: 'text' }, validation('name', 'This field may not be blank.', 'blank')],
        [
          { name: 'x'.repeat(251), type: 'text' },
          validation('name', 'Ensure this field has no more than 250 characters.', 'max_length'),
        ],
      ] as const) {
        const refused = await as('owner').post(`corpus/${listedId}/allowed-metadata/`, body);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual(expected);
      }
    });

    it('updates and deletes one', async () => {
      const id = await allow(listedId, 'Draft', 'text');
      const patched = await as('owner').patch(`corpus/${listedId}/allowed-metadata/${id}/`, {
        type: 'reference',
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toEqual({ id, name: 'Draft', type: 'reference' });
      const taken = await as('owner').patch(`corpus/${listedId}/allowed-metadata/${id}/`, {
        name: 'author',
        type: 'text',
      });
      expect(taken.statusCode).toBe(400);
      expect(taken.json().errors[0].code).toBe('unique');
      const deleted = await as('owner').delete(`corpus/${listedId}/allowed-metadata/${id}/`);
      expect(deleted.statusCode).toBe(204);
      const gone = await as('owner').delete(`corpus/${listedId}/allowed-metadata/${id}/`);
      expect(gone.statusCode).toBe(404);
      // Under another project, the id names nothing.
      const other = await allow(publicId, `Other ${randomUUID().slice(0, 8)}`, 'text');
      const wrong = await as('siteAdmin').delete(`corpus/${listedId}/allowed-metadata/${other}/`);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json()).toEqual(NOT_FOUND);
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const corpusId = which === 'private' ? privateId : publicId;
        const created = await as(role).post(`corpus/${corpusId}/allowed-metadata/`, {
          name: 'Intruder',
          type: 'text',
        });
        expect(created.statusCode).toBe(status);
        expect(created.json()).toEqual(expected);
        const id = await allow(corpusId, `Kept ${randomUUID().slice(0, 8)}`, 'text');
        const patched = await as(role).patch(`corpus/${corpusId}/allowed-metadata/${id}/`, {
          name: 'Renamed',
        });
        expect(patched.statusCode).toBe(status);
        expect(patched.json()).toEqual(expected);
        const deleted = await as(role).delete(`corpus/${corpusId}/allowed-metadata/${id}/`);
        expect(deleted.statusCode).toBe(status);
        expect(deleted.json()).toEqual(expected);
      },
    );
  });

  describe('POST /element/{id}/metadata/', () => {
    it.each([
      ['text', 'Folio', '  12 recto ', '12 recto', null, []],
      ['markdown', 'Notes', '**Bold** note', '**Bold** note', null, []],
      ['location', 'Place', 'Arras', 'Arras', null, []],
      ['reference', 'Shelfmark', 'MS 42', 'MS 42', null, []],
      ['numeric', 'Count', '3.5', '3.5', 3.5, []],
      ['numeric', 'Count', '-2e3', '-2e3', -2000, []],
      ['numeric', 'Count', 42, '42', 42, []],
      ['url', 'Link', 'https://example.org/a?b=c', 'https://example.org/a?b=c', null, []],
      ['url', 'Link', 'http://example.org', 'http://example.org', null, []],
      ['date', 'Date', '1850', '1850', null, [{ type: 'exact', year: 1850 }]],
      ['date', 'Date', '1850-03', '1850-03', null, [{ type: 'exact', year: 1850, month: 3 }]],
      [
        'date',
        'Date',
        '2024-02-29',
        '2024-02-29',
        null,
        [{ type: 'exact', year: 2024, month: 2, day: 29 }],
      ],
      [
        'date',
        'Date',
        '1850-1900',
        '1850-1900',
        null,
        [
          { type: 'lower', year: 1850 },
          { type: 'upper', year: 1900 },
        ],
      ],
    ])('creates a %s metadata from %j', async (type, name, value, stored, numeric, dates) => {
      const response = await as('contributor').post(`element/${ids.Other}/metadata/`, {
        type,
        name,
        value,
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        type,
        name,
        value: stored,
        dates,
        worker_run: null,
      });
      expect(new Date(response.headers['last-modified'] as string).getTime()).not.toBeNaN();
      const row = await metadataRow(t().app, body.id);
      expect(row).toMatchObject({
        element_id: ids.Other,
        value: stored,
        numeric_value: numeric,
        creator_id: actors.contributor.id,
      });
    });

    it.each([
      ['numeric', 'abc', 'Value must be a valid number'],
      ['numeric', '1,5', 'Value must be a valid number'],
      ['numeric', 'Infinity', 'Value must be a valid number'],
      ['numeric', '1e999', 'Value must be a valid number'],
      ['date', '1850-13', 'This date is invalid'],
      ['date', '1850-02-30', 'This date is invalid'],
      ['date', '2023-02-29', 'This date is invalid'],
      ['date', '0000', 'This date is invalid'],
      ['date', '1900-1850', 'This date is invalid'],
      ['date', '18500', 'This date is invalid'],
      ['date', '12/03/1850', 'This date is invalid'],
      ['url', 'ftp://example.org/file', 'Only HTTP and HTTPS URLs are allowed'],
      ['url', 'javascript:alert(1)', 'Only HTTP and HTTPS URLs are allowed'],
      ['url', 'example.org', 'Enter a valid URL.'],
      ['text', '   ', 'Value may not be empty'],
    ])('refuses the %s value %j', async (type, value, detail) => {
      const name = ALLOWED.find(([, allowed]) => allowed === type)![0];
      const before = await metadataCount(t().app, ids.Other!);
      const response = await as('contributor').post(`element/${ids.Other}/metadata/`, {
        type,
        name,
        value,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation('value', detail));
      expect(await metadataCount(t().app, ids.Other!)).toBe(before);
    });

    it.each([
      ['an unknown type', { type: 'html' }, validation('type', 'Invalid metadata type')],
      ['no type', { type: undefined }, validation('type', 'This field is required.', 'required')],
      ['a blank name', { name: ' ' }, validation('name', 'This field may not be blank.', 'blank')],
      [
        'a long name',
        { name: 'n'.repeat(251) },
        validation('name', 'Ensure this field has no more than 250 characters.', 'max_length'),
      ],
      [
        'no value',
        { value: undefined },
        validation('value', 'This field is required.', 'required'),
      ],
      ['a boolean value', { value: true }, validation('value', 'Not a valid string.')],
      ['a null value', { value: null }, validation('value', 'This field may not be null.', 'null')],
      [
        'a bad worker run',
        { worker_run_id: 'x' },
        validation('worker_run_id', 'Must be a valid UUID.'),
      ],
    ])('answers 400 to %s', async (_label, change, expected) => {
      const response = await as('contributor').post(`element/${ids.Other}/metadata/`, {
        type: 'text',
        name: 'Folio',
        value: '1',
        ...change,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
    });

    it('names every bad field in one answer', async () => {
      const response = await as('contributor').post(`element/${ids.Other}/metadata/`, {
        type: 'nope',
        name: '',
        value: '',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        type: 'validation_error',
        errors: [
          { code: 'invalid', detail: 'Invalid metadata type', attr: 'type' },
          { code: 'blank', detail: 'This field may not be blank.', attr: 'name' },
          { code: 'invalid', detail: 'Value may not be empty', attr: 'value' },
        ],
      });
    });

    it('keeps non-admins to the allowed names and types; site admins write any', async () => {
      for (const [role, body] of [
        ['contributor', { type: 'text', name: 'Secret', value: 'x' }],
        // An allowed name with another type is not allowed either.
        ['contributor', { type: 'text', name: 'Count', value: '3' }],
        ['owner', { type: 'text', name: 'Secret', value: 'x' }],
      ] as const) {
        const response = await as(role).post(`element/${ids.Other}/metadata/`, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(NOT_ALLOWED);
      }
      const free = await as('siteAdmin').post(`element/${ids.Other}/metadata/`, {
        type: 'reference',
        name: 'Secret',
        value: 'x',
      });
      expect(free.statusCode).toBe(201);
      // Free edit skips the allowed list, not the checks of the value.
      const bad = await as('siteAdmin').post(`element/${ids.Other}/metadata/`, {
        type: 'numeric',
        name: 'Anything',
        value: 'many',
      });
      expect(bad.json()).toEqual(validation('value', 'Value must be a valid number'));
    });

    it('records a worker run of the project, with its summary', async () => {
      const run = await makeWorkerRun(t().app, privateId, {
        workerName: 'Dater',
        revision: null,
        version: 3,
      });
      const response = await as('contributor').post(`element/${ids.Other}/metadata/`, {
        type: 'date',
        name: 'Date',
        value: '1789',
        worker_run_id: run.id,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().worker_run).toEqual({ id: run.id, summary: 'Worker Dater @ 3' });
      const elsewhere = await makeWorkerRun(t().app, publicId);
      for (const id of [elsewhere.id, UNKNOWN_ID]) {
        const refused = await as('contributor').post(`element/${ids.Other}/metadata/`, {
          type: 'date',
          name: 'Date',
          value: '1789',
          worker_run_id: id,
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual(invalidPk('worker_run_id', id));
      }
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['outsider', 'private', 404, NOT_FOUND],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
      const element = which === 'private' ? ids.Other! : publicIds['Open page']!;
      const before = await metadataCount(t().app, element);
      const response = await as(role).post(`element/${element}/metadata/`, {
        type: 'text',
        name: 'Folio',
        value: '1',
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
      expect(await metadataCount(t().app, element)).toBe(before);
    });

    it('answers 404 for unknown and malformed element ids', async () => {
      for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
        const response = await as('siteAdmin').post(`element/${id}/metadata/`, {
          type: 'text',
          name: 'Folio',
          value: '1',
        });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it('applies a create once when its Idempotency-Key is replayed', async () => {
      const headers = { 'idempotency-key': randomUUID() };
      const body = { type: 'text', name: 'Folio', value: 'once' };
      const before = await metadataCount(t().app, ids.Other!);
      const first = await as('contributor').post(`element/${ids.Other}/metadata/`, body, headers);
      const again = await as('contributor').post(`element/${ids.Other}/metadata/`, body, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect(await metadataCount(t().app, ids.Other!)).toBe(before + 1);
    });
  });

  describe('GET /element/{id}/metadata/', () => {
    let own: string[];
    let parents: string[];

    beforeAll(async () => {
      own = [
        await addMetadata(ids.Page!, { type: 'text', name: 'Folio', value: '3v' }),
        await addMetadata(ids.Page!, { type: 'date', name: 'Date', value: '1850-03-12' }),
      ];
      parents = [
        await addMetadata(ids.Register!, { type: 'location', name: 'Place', value: 'Lille' }),
        await addMetadata(ids.Volume!, { type: 'reference', name: 'Shelfmark', value: 'A 1' }),
      ];
    });

    it("lists the element's metadata by name", async () => {
      const response = await as('guest').get(`element/${ids.Page}/metadata/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        {
          id: own[1],
          type: 'date',
          name: 'Date',
          value: '1850-03-12',
          dates: [{ type: 'exact', year: 1850, month: 3, day: 12 }],
          worker_run: null,
        },
        { id: own[0], type: 'text', name: 'Folio', value: '3v', dates: [], worker_run: null },
      ]);
    });

    it("adds the ancestors' metadata after the element's with load_parents", async () => {
      const response = await as('guest').get(`element/${ids.Page}/metadata/?load_parents=true`);
      expect(response.statusCode).toBe(200);
      expect(response.json().map((item: { id: string }) => item.id)).toEqual([
        own[1],
        own[0],
        parents[0],
        parents[1],
      ]);
      const without = await as('guest').get(`element/${ids.Page}/metadata/?load_parents=false`);
      expect(without.json()).toHaveLength(2);
      const bad = await as('guest').get(`element/${ids.Page}/metadata/?load_parents=maybe`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual(validation('load_parents', 'Only Yes and No are allowed'));
    });

    it('shows metadata of a public project to anyone, and hides a private one', async () => {
      await addMetadata(publicIds['Open page']!, { type: 'text', name: 'Folio', value: '1' });
      const open = await as('anonymous').get(`element/${publicIds['Open page']}/metadata/`);
      expect(open.statusCode).toBe(200);
      expect(open.json()).toHaveLength(1);
      for (const [role, id] of [
        ['outsider', ids.Page],
        ['anonymous', ids.Page],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'not-a-uuid'],
      ] as const) {
        const response = await as(role).get(`element/${id}/metadata/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('GET, PATCH and DELETE /metadata/{id}/', () => {
    const anHourAgo = () => new Date(Date.now() - 3600_000).toUTCString();

    it('shows one metadata with its Last-Modified', async () => {
      const id = await addMetadata(ids.Other!, { type: 'numeric', name: 'Count', value: '7' });
      const response = await as('guest').get(`metadata/${id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id,
        type: 'numeric',
        name: 'Count',
        value: '7',
        dates: [],
        worker_run: null,
      });
      expect(response.headers['last-modified']).toBeDefined();
      for (const [role, path] of [
        ['outsider', id],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'nope'],
      ] as const) {
        const hidden = await as(role).get(`metadata/${path}/`);
        expect(hidden.statusCode).toBe(404);
        expect(hidden.json()).toEqual(NOT_FOUND);
      }
    });

    it('edits the value, and checks it again when the type changes', async () => {
      const id = await addMetadata(ids.Other!, { type: 'text', name: 'Folio', value: '12' });
      const value = await as('contributor').patch(`metadata/${id}/`, { value: ' 13 ' });
      expect(value.statusCode).toBe(200);
      expect(value.json()).toMatchObject({ id, type: 'text', name: 'Folio', value: '13' });
      expect((await metadataRow(t().app, id))!.numeric_value).toBeNull();

      const numeric = await as('contributor').patch(`metadata/${id}/`, {
        type: 'numeric',
        name: 'Count',
      });
      expect(numeric.statusCode).toBe(200);
      expect(numeric.json()).toMatchObject({ type: 'numeric', name: 'Count', value: '13' });
      expect((await metadataRow(t().app, id))!.numeric_value).toBe(13);

      const date = await as('contributor').patch(`metadata/${id}/`, { type: 'date', name: 'Date' });
      expect(date.statusCode).toBe(400);
      expect(date.json()).toEqual(validation('value', 'This date is invalid'));
      const withValue = await as('contributor').patch(`metadata/${id}/`, {
        type: 'date',
        name: 'Date',
        value: '1999-12',
      });
      expect(withValue.json()).toMatchObject({
        type: 'date',
        value: '1999-12',
        dates: [{ type: 'exact', year: 1999, month: 12 }],
      });
      expect((await metadataRow(t().app, id))!.numeric_value).toBeNull();

      for (const [body, expected] of [
        [{ value: '' }, validation('value', 'Value may not be empty')],
        [{ type: 'html' }, validation('type', 'Invalid metadata type')],
        [{ name: null }, validation('name', 'This field may not be null.', 'null')],
        [{ type: 'text', name: 'Unlisted' }, NOT_ALLOWED],
      ] as const) {
        const refused = await as('contributor').patch(`metadata/${id}/`, body);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual(expected);
      }
      expect((await as('guest').get(`metadata/${id}/`)).json().value).toBe('1999-12');
    });

    it('keeps a metadata outside the allowed list to site admins', async () => {
      const id = await addMetadata(
        ids.Other!,
        { type: 'text', name: 'Provenance', value: 'Gift' },
        'siteAdmin',
      );
      for (const role of ['contributor', 'owner'] as const) {
        const edit = await as(role).patch(`metadata/${id}/`, { value: 'Purchase' });
        expect(edit.statusCode).toBe(403);
        expect(edit.json()).toEqual(PROTECTED_EDIT);
        const remove = await as(role).delete(`metadata/${id}/`);
        expect(remove.statusCode).toBe(403);
        expect(remove.json()).toEqual(PROTECTED_DELETE);
      }
      const edited = await as('siteAdmin').patch(`metadata/${id}/`, { value: 'Purchase' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().value).toBe('Purchase');
      expect((await as('siteAdmin').delete(`metadata/${id}/`)).statusCode).toBe(204);
    });

    it('deletes a metadata', async () => {
      const id = await addMetadata(ids.Other!, { type: 'url', name: 'Link', value: 'https://a.b' });
      const deleted = await as('contributor').delete(`metadata/${id}/`);
      expect(deleted.statusCode).toBe(204);
      expect(await metadataRow(t().app, id)).toBeUndefined();
      const again = await as('contributor').delete(`metadata/${id}/`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(NOT_FOUND);
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['outsider', 'private', 404, NOT_FOUND],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)(
      'answers %s editing or deleting on a %s project with %i',
      async (role, which, status, expected) => {
        const element = which === 'private' ? ids.Other! : publicIds['Open page']!;
        const id = await addMetadata(element, { type: 'text', name: 'Folio', value: 'kept' });
        const edit = await as(role).patch(`metadata/${id}/`, { value: 'changed' });
        expect(edit.statusCode).toBe(status);
        expect(edit.json()).toEqual(expected);
        const remove = await as(role).delete(`metadata/${id}/`);
        expect(remove.statusCode).toBe(status);
        expect(remove.json()).toEqual(expected);
        expect((await metadataRow(t().app, id))!.value).toBe('kept');
      },
    );

    it('refuses with 412 an edit or deletion based on an older version', async () => {
      const id = await addMetadata(ids.Other!, { type: 'text', name: 'Folio', value: 'v1' });
      const read = await as('contributor').get(`metadata/${id}/`);
      const lastModified = read.headers['last-modified'] as string;
      const fresh = await as('contributor').patch(
        `metadata/${id}/`,
        { value: 'v2' },
        { 'if-unmodified-since': lastModified },
      );
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers['last-modified']).toBeDefined();

      const stale = await as('contributor').patch(
        `metadata/${id}/`,
        { value: 'mine' },
        { 'if-unmodified-since': anHourAgo() },
      );
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toEqual({
        type: 'client_error',
        errors: [
          {
            code: 'precondition_failed',
            detail: 'This metadata was changed by someone else since your edit was made.',
            attr: null,
          },
        ],
        current: { id, type: 'text', name: 'Folio', value: 'v2', dates: [], worker_run: null },
      });
      expect(stale.headers['last-modified']).toBeDefined();
      const staleDelete = await as('contributor').delete(`metadata/${id}/`, undefined, {
        'if-unmodified-since': anHourAgo(),
      });
      expect(staleDelete.statusCode).toBe(412);
      expect((await metadataRow(t().app, id))!.value).toBe('v2');
      const current = (await as('contributor').get(`metadata/${id}/`)).headers[
        'last-modified'
      ] as string;
      const deleted = await as('contributor').delete(`metadata/${id}/`, undefined, {
        'if-unmodified-since': current,
      });
      expect(deleted.statusCode).toBe(204);
    });
  });
});
