import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from '../expectedErrors';
import {
  FULL_SCHEMA,
  client,
  makeWorkerCast,
  publishVersion,
  publishWorker,
  type WorkerCast,
  type WorkerRole,
} from './fixtures';

const UNVERIFIED = denied('You must verify your email address to perform this action.');
const CANNOT_ARCHIVE = denied(
  'Only site administrators and worker managers can change a configuration.',
);
const CONFLICT_DETAIL = 'A worker configuration with this name already exists for this worker.';

describeEachDialect('worker configurations', ({ t }) => {
  let cast: WorkerCast;
  const as = (role: WorkerRole | 'anonymous') => client(t().app, cast, role);
  let workerId: string;
  let modelId: string;
  let privateModelId: string;

  beforeAll(async () => {
    cast = await makeWorkerCast(t().app);
    workerId = (await publishWorker(as('manager'))).id;
    await publishVersion(as('manager'), workerId, {
      configuration: { user_configuration: FULL_SCHEMA },
    });
    modelId = randomUUID();
    privateModelId = randomUUID();
    for (const [id, open] of [
      [modelId, 1],
      [privateModelId, 0],
    ] as const) {
      await t()
        .app.db.insertInto('models')
        .values({
          id,
          name: `Model ${id}`,
          description: '',
          public: open,
          created: '2024-01-01T00:00:00Z',
        })
        .execute();
    }
  });

  let serial = 0;
  const create = (
    role: WorkerRole,
    configuration: unknown,
    extra: Record<string, unknown> = {},
  ) => {
    serial += 1;
    return as(role).post(`workers/${workerId}/configurations/`, {
      name: `Configuration ${serial}`,
      configuration,
      ...extra,
    });
  };

  describe('POST /workers/{id}/configurations/', () => {
    it('creates a configuration any verified user names', async () => {
      const response = await as('verified').post(`workers/${workerId}/configurations/`, {
        name: 'Fast',
        configuration: { batch: 32, options: { deskew: false, labels: { a: 'b' } } },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Fast',
        configuration: { batch: 32, options: { deskew: false, labels: { a: 'b' } } },
        archived: false,
      });
    });

    it('answers 409 with the existing configuration for a name the worker already has', async () => {
      const first = await as('verified').post(`workers/${workerId}/configurations/`, {
        name: 'Taken',
        configuration: { batch: 1 },
      });
      const second = await as('manager').post(`workers/${workerId}/configurations/`, {
        name: 'Taken',
        configuration: { batch: 2 },
      });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toEqual({
        type: 'client_error',
        errors: [{ code: 'conflict', detail: CONFLICT_DETAIL, attr: 'name' }],
        existing_id: first.json().id,
      });
      // Another worker may use the name.
      const other = await publishWorker(as('manager'));
      const elsewhere = await as('verified').post(`workers/${other.id}/configurations/`, {
        name: 'Taken',
        configuration: { anything: true },
      });
      expect(elsewhere.statusCode).toBe(201);
    });

    it('keeps one of two configurations named alike at the same time', async () => {
      const responses = await Promise.all(
        [1, 2].map((batch) =>
          as('verified').post(`workers/${workerId}/configurations/`, {
            name: 'Same moment',
            configuration: { batch },
          }),
        ),
      );
      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    });

    it.each([
      [{ batch: 'many' }, 'configuration.batch', 'Value must be a valid integer.'],
      [{ threshold: 'high' }, 'configuration.threshold', 'Value must be a valid float.'],
      [{ language: 'deu' }, 'configuration.language', 'deu is not a valid option.'],
      [
        { options: { deskew: 'yes' } },
        'configuration.options.deskew',
        'Value must be a valid boolean.',
      ],
      [
        { options: { labels: [1] } },
        'configuration.options.labels',
        'Value must be a valid dictionary.',
      ],
      [{ tags: [1, 2] }, 'configuration.tags', 'Value must be a valid list of string.'],
      [{ model: 'abc' }, 'configuration.model', 'Value must be a valid UUID'],
      [{ batch: 2, colour: 'red' }, 'configuration.colour', 'Unrecognised field'],
      [{}, 'configuration', 'Please enter a valid JSON configuration'],
    ])('refuses %j with the shared rules’ message', async (configuration, attr, detail) => {
      const response = await create('verified', configuration);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation(attr, detail));
    });

    it('refuses a model that does not exist and accepts one that does', async () => {
      const missing = await create('verified', { model: UNKNOWN_ID });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual(
        validation('configuration.model', 'This model does not exist', 'does_not_exist'),
      );
      const known = await create('verified', { model: modelId });
      expect(known.statusCode).toBe(201);
      // A model the author may not read does not exist for them; a site admin reads them all.
      const hidden = await create('verified', { model: privateModelId });
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json()).toEqual(
        validation('configuration.model', 'This model does not exist', 'does_not_exist'),
      );
      expect((await create('admin', { model: privateModelId })).statusCode).toBe(201);
    });

    it('refuses the default configuration', async () => {
      const response = await create('verified', { batch: 8, language: 'fra' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        validation('configuration', 'This already is the default configuration'),
      );
    });

    it('checks against the version named, which must be the worker’s', async () => {
      const version = await publishVersion(as('manager'), workerId, {
        configuration: {
          user_configuration: { size: { title: 'Size', type: 'int', required: false } },
        },
      });
      // The newest version's schema is now the default one.
      expect((await create('verified', { size: 3 })).statusCode).toBe(201);
      const older = await create(
        'verified',
        { size: 3 },
        {
          worker_version_id: (
            await as('verified').get(`workers/${workerId}/versions/?page=1&page_size=100`)
          )
            .json()
            .results.at(-1).id,
        },
      );
      expect(older.statusCode).toBe(400);
      expect(older.json()).toEqual(validation('configuration.size', 'Unrecognised field'));
      const stranger = await publishVersion(as('manager'), (await publishWorker(as('manager'))).id);
      const wrong = await create('verified', { size: 3 }, { worker_version_id: stranger.id });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual(invalidPk('worker_version_id', stranger.id));
      expect(version.id).toMatch(UUID);
    });

    it('accepts any object for a worker without a schema', async () => {
      const worker = await publishWorker(as('manager'));
      const response = await as('verified').post(`workers/${worker.id}/configurations/`, {
        name: 'Free',
        configuration: { anything: [1, 2] },
      });
      expect(response.statusCode).toBe(201);
    });

    it.each([
      [{ configuration: { batch: 2 } }, validation('name', 'This field is required.', 'required')],
      [
        { name: '  ', configuration: { batch: 2 } },
        validation('name', 'This field may not be blank.', 'blank'),
      ],
      [
        { name: 'List', configuration: [1] },
        validation('configuration', 'Invalid data. Expected a dictionary, but got list.'),
      ],
      [
        { name: 'Bad version', configuration: { batch: 2 }, worker_version_id: 'x' },
        validation('worker_version_id', 'Must be a valid UUID.'),
      ],
    ])('answers 400 to %j', async (body, error) => {
      const response = await as('verified').post(`workers/${workerId}/configurations/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(error);
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
    ] as const)('refuses %s', async (role, status, body) => {
      const response = await as(role).post(`workers/${workerId}/configurations/`, {
        name: `By ${role}`,
        configuration: { batch: 3 },
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
    });

    it('answers 404 for an unknown worker', async () => {
      const response = await as('verified').post(`workers/${UNKNOWN_ID}/configurations/`, {
        name: 'x',
        configuration: { batch: 3 },
      });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('GET /workers/{id}/configurations/ and /workers/configurations/{id}/', () => {
    let worker: string;
    let enabled: string;
    let archived: string;

    beforeAll(async () => {
      worker = (await publishWorker(as('manager'))).id;
      const post = async (name: string) =>
        (
          await as('verified').post(`workers/${worker}/configurations/`, {
            name,
            configuration: { n: name },
          })
        ).json().id as string;
      archived = await post('b old');
      enabled = await post('A new');
      await as('manager').patch(`workers/configurations/${archived}/`, { archived: true });
    });

    const names = async (query: string) => {
      const response = await as('verified').get(`workers/${worker}/configurations/${query}`);
      expect(response.statusCode).toBe(200);
      return (response.json().results as { name: string }[]).map((c) => c.name);
    };

    it('lists all by name, or only the enabled or archived ones', async () => {
      expect(await names('')).toEqual(['A new', 'b old']);
      expect(await names('?archived=false')).toEqual(['A new']);
      expect(await names('?archived=true')).toEqual(['b old']);
      const paged = await as('verified').get(`workers/${worker}/configurations/?page_size=1`);
      expect(paged.json()).toMatchObject({ count: 2, next: expect.stringContaining('page=2') });
    });

    it('reads one configuration', async () => {
      const response = await as('verified').get(`workers/configurations/${enabled}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: enabled,
        name: 'A new',
        configuration: { n: 'A new' },
        archived: false,
      });
    });

    it('answers 400 to a bad archived filter and 404 to unknown ids', async () => {
      const bad = await as('verified').get(`workers/${worker}/configurations/?archived=2`);
      expect(bad.statusCode).toBe(400);
      for (const path of [`workers/configurations/${UNKNOWN_ID}/`, 'workers/configurations/1/']) {
        const response = await as('verified').get(path);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
    ] as const)('refuses %s', async (role, status, body) => {
      for (const path of [
        `workers/${worker}/configurations/`,
        `workers/configurations/${enabled}/`,
      ]) {
        const response = await as(role).get(path);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(body);
      }
    });
  });

  describe('PATCH /workers/configurations/{id}/', () => {
    let free: string;
    beforeAll(async () => {
      free = (await publishWorker(as('manager'))).id;
    });

    const fresh = async () =>
      (
        await as('verified').post(`workers/${free}/configurations/`, {
          name: `Patch me ${randomUUID()}`,
          configuration: { batch: 64 },
        })
      ).json() as { id: string; name: string };

    it.each(['manager', 'admin'] as const)(
      'lets a %s archive, unarchive and rename',
      async (role) => {
        const configuration = await fresh();
        const archived = await as(role).patch(`workers/configurations/${configuration.id}/`, {
          archived: true,
        });
        expect(archived.statusCode).toBe(200);
        expect(archived.json()).toMatchObject({ archived: true, name: configuration.name });
        const renamed = await as(role).patch(`workers/configurations/${configuration.id}/`, {
          archived: false,
          name: `Renamed by ${role}`,
        });
        expect(renamed.json()).toMatchObject({ archived: false, name: `Renamed by ${role}` });
        const read = await as('verified').get(`workers/configurations/${configuration.id}/`);
        expect(read.json()).toEqual(renamed.json());
      },
    );

    it('answers 409 with the existing id when renaming to a taken name', async () => {
      const first = await fresh();
      const second = await fresh();
      const response = await as('manager').patch(`workers/configurations/${second.id}/`, {
        name: first.name,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        type: 'client_error',
        errors: [{ code: 'conflict', detail: CONFLICT_DETAIL, attr: 'name' }],
        existing_id: first.id,
      });
      // Its own name is no clash.
      const same = await as('manager').patch(`workers/configurations/${second.id}/`, {
        name: second.name,
      });
      expect(same.statusCode).toBe(200);
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
      ['verified', 403, CANNOT_ARCHIVE],
    ] as const)('refuses %s and changes nothing', async (role, status, body) => {
      const configuration = await fresh();
      const response = await as(role).patch(`workers/configurations/${configuration.id}/`, {
        archived: true,
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
      const read = await as('verified').get(`workers/configurations/${configuration.id}/`);
      expect(read.json().archived).toBe(false);
    });

    it('answers 400 to bad values and 404 to unknown ids', async () => {
      const configuration = await fresh();
      const bad = await as('manager').patch(`workers/configurations/${configuration.id}/`, {
        name: '',
        archived: true,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual(validation('name', 'This field may not be blank.', 'blank'));
      const read = await as('verified').get(`workers/configurations/${configuration.id}/`);
      expect(read.json().archived).toBe(false);
      const unknown = await as('manager').patch(`workers/configurations/${UNKNOWN_ID}/`, {
        archived: true,
      });
      expect(unknown.statusCode).toBe(404);
    });
  });
});
