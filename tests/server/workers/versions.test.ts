import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
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
const NOT_MANAGER = denied('You do not have permission to manage workers.');
const SHA = '0123456789abcdef0123456789abcdef01234567';

describeEachDialect('worker versions', ({ t }) => {
  let cast: WorkerCast;
  const as = (role: WorkerRole | 'anonymous') => client(t().app, cast, role);

  beforeAll(async () => {
    cast = await makeWorkerCast(t().app);
  });

  describe('POST /workers/{id}/versions/', () => {
    it('publishes a git revision with everything Arkindex records of it', async () => {
      const worker = await publishWorker(as('manager'), {
        repository_url: 'https://gitlab.example.org/w',
      });
      const response = await as('manager').post(`workers/${worker.id}/versions/`, {
        configuration: { docker: { image: 'w:1' }, user_configuration: FULL_SCHEMA },
        revision_url: `https://gitlab.example.org/w/-/commit/${SHA}`,
        branch: 'main',
        tag: 'v1.0',
        state: 'available',
        gpu_usage: 'supported',
        model_usage: 'required',
        docker_image_iid: 'sha256:abc',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        worker: {
          id: worker.id,
          name: worker.name,
          slug: worker.slug,
          type: 'recognizer',
          repository_url: 'https://gitlab.example.org/w',
        },
        version: null,
        revision_url: `https://gitlab.example.org/w/-/commit/${SHA}`,
        branch: 'main',
        tag: 'v1.0',
        state: 'available',
        gpu_usage: 'supported',
        model_usage: 'required',
        docker_image_iid: 'sha256:abc',
        feature: null,
        created: expect.any(String),
        configuration: { docker: { image: 'w:1' }, user_configuration: FULL_SCHEMA },
      });
      // Summaries of its results name it by its short hash, as before.
      const row = await t()
        .app.db.selectFrom('worker_versions')
        .select('revision_hash')
        .where('id', '=', response.json().id)
        .executeTakeFirstOrThrow();
      expect(row.revision_hash).toBe(SHA);
    });

    it('numbers versions published without a revision, defaulting to created and disabled', async () => {
      const worker = await publishWorker(as('manager'));
      const first = await publishVersion(as('manager'), worker.id);
      const second = await publishVersion(as('admin'), worker.id, { configuration: {} });
      expect(first).toMatchObject({
        version: 1,
        revision_url: null,
        state: 'created',
        gpu_usage: 'disabled',
        model_usage: 'disabled',
        configuration: {},
      });
      expect(second.version).toBe(2);
    });

    it('numbers versions published at the same time one after the other', async () => {
      const worker = await publishWorker(as('manager'));
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => as('manager').post(`workers/${worker.id}/versions/`, {})),
      );
      expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201, 201, 201]);
      expect(responses.map((response) => response.json().version).sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('refuses a revision_url the worker already has', async () => {
      const worker = await publishWorker(as('manager'));
      const url = `https://gitlab.example.org/w/-/commit/${SHA}`;
      await publishVersion(as('manager'), worker.id, { revision_url: url });
      const again = await as('manager').post(`workers/${worker.id}/versions/`, {
        revision_url: url,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(
        validation(
          'revision_url',
          'A worker version with this revision_url already exists for this worker.',
          'unique',
        ),
      );
      // Another worker may publish the same revision.
      const other = await publishWorker(as('manager'));
      await publishVersion(as('manager'), other.id, { revision_url: url });
    });

    it('refuses a user_configuration the editor could not use, on the key at fault', async () => {
      const worker = await publishWorker(as('manager'));
      const response = await as('manager').post(`workers/${worker.id}/versions/`, {
        configuration: {
          user_configuration: {
            size: { title: 'Size', type: 'size' },
            name: { type: 'string' },
          },
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        type: 'validation_error',
        errors: [
          {
            code: 'invalid',
            detail: 'Unknown field type',
            attr: 'configuration.user_configuration.size.type',
          },
          {
            code: 'invalid',
            detail: 'A field needs a title.',
            attr: 'configuration.user_configuration.name.title',
          },
        ],
      });
      const list = await as('verified').get(`workers/${worker.id}/versions/`);
      expect(list.json().count).toBe(0);
    });

    it.each([
      [
        { state: 'running' },
        validation('state', '"running" is not a valid choice.', 'invalid_choice'),
      ],
      [
        { gpu_usage: 'yes' },
        validation('gpu_usage', '"yes" is not a valid choice.', 'invalid_choice'),
      ],
      [
        { configuration: [] },
        validation('configuration', 'Invalid data. Expected a dictionary, but got list.'),
      ],
      [{ revision_url: 'nope' }, validation('revision_url', 'Enter a valid URL.')],
      [
        { feature: 'teleport' },
        validation('feature', '"teleport" is not a valid choice.', 'invalid_choice'),
      ],
    ])('answers 400 to %j', async (body, error) => {
      const worker = await publishWorker(as('manager'));
      const response = await as('manager').post(`workers/${worker.id}/versions/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(error);
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
      ['verified', 403, NOT_MANAGER],
    ] as const)('refuses %s', async (role, status, body) => {
      const worker = await publishWorker(as('manager'));
      const response = await as(role).post(`workers/${worker.id}/versions/`, {});
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
    });

    it('answers 404 for an unknown worker', async () => {
      const response = await as('manager').post(`workers/${UNKNOWN_ID}/versions/`, {});
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('GET /workers/{id}/versions/ and /workers/versions/{id}/', () => {
    it('lists a worker’s versions newest first, in pages', async () => {
      const worker = await publishWorker(as('manager'));
      const versions = [];
      for (let i = 0; i < 3; i += 1) versions.push(await publishVersion(as('manager'), worker.id));
      const page = await as('verified').get(`workers/${worker.id}/versions/?page_size=2`);
      expect(page.statusCode).toBe(200);
      expect(page.json()).toMatchObject({ count: 3, number: 1, previous: null });
      expect(page.json().results.map((v: { version: number }) => v.version)).toEqual([3, 2]);
      const next = await as('verified').get(`workers/${worker.id}/versions/?page=2&page_size=2`);
      expect(next.json().results.map((v: { version: number }) => v.version)).toEqual([1]);
    });

    it('reads one version', async () => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id, { tag: 'v2' });
      const response = await as('verified').get(`workers/versions/${version.id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(version);
    });

    it('answers 404 to unknown and malformed ids', async () => {
      for (const path of [
        `workers/versions/${UNKNOWN_ID}/`,
        'workers/versions/12/',
        `workers/${UNKNOWN_ID}/versions/`,
      ]) {
        const response = await as('verified').get(path);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
    ] as const)('refuses %s', async (role, status, body) => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id);
      for (const path of [`workers/${worker.id}/versions/`, `workers/versions/${version.id}/`]) {
        const response = await as(role).get(path);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(body);
      }
    });
  });

  describe('PATCH /workers/versions/{id}/', () => {
    it('sets state, tag and branch', async () => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id);
      const response = await as('manager').patch(`workers/versions/${version.id}/`, {
        state: 'available',
        tag: 'v3',
        branch: 'dev',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...version, state: 'available', tag: 'v3', branch: 'dev' });
      expect((await as('verified').get(`workers/versions/${version.id}/`)).json()).toEqual(
        response.json(),
      );
    });

    it('refuses bad values and changes nothing', async () => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id);
      const response = await as('manager').patch(`workers/versions/${version.id}/`, {
        tag: 'v4',
        state: 'done',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        validation('state', '"done" is not a valid choice.', 'invalid_choice'),
      );
      expect((await as('verified').get(`workers/versions/${version.id}/`)).json().tag).toBeNull();
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
      ['verified', 403, NOT_MANAGER],
    ] as const)('refuses %s', async (role, status, body) => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id);
      const response = await as(role).patch(`workers/versions/${version.id}/`, { tag: 'x' });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
    });

    it('answers 404 for an unknown version', async () => {
      const response = await as('manager').patch(`workers/versions/${UNKNOWN_ID}/`, { tag: 'x' });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('GET /workers/{id}/versions/recommended/', () => {
    it('answers the newest available version, a tagged one first; 404 when none', async () => {
      const worker = await publishWorker(as('manager'));
      const none = await as('verified').get(`workers/${worker.id}/versions/recommended/`);
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual(NOT_FOUND);
      await publishVersion(as('manager'), worker.id, { state: 'created' });
      expect(
        (await as('verified').get(`workers/${worker.id}/versions/recommended/`)).statusCode,
      ).toBe(404);
      const tagged = await publishVersion(as('manager'), worker.id, {
        state: 'available',
        tag: 'v1',
      });
      const untagged = await publishVersion(as('manager'), worker.id, { state: 'available' });
      await publishVersion(as('manager'), worker.id, { state: 'error', tag: 'v2' });
      const response = await as('verified').get(`workers/${worker.id}/versions/recommended/`);
      expect(response.statusCode).toBe(200);
      expect(response.json().id).toBe(tagged.id);
      await as('manager').patch(`workers/versions/${tagged.id}/`, { state: 'error' });
      const fallback = await as('verified').get(`workers/${worker.id}/versions/recommended/`);
      expect(fallback.json().id).toBe(untagged.id);
    });

    it('refuses anonymous visitors', async () => {
      const worker = await publishWorker(as('manager'));
      const response = await as('anonymous').get(`workers/${worker.id}/versions/recommended/`);
      expect(response.statusCode).toBe(401);
    });
  });

  describe('GET /workers/versions/feature/{feature}/', () => {
    it('answers the available version providing a feature; one version per feature', async () => {
      const missing = await as('verified').get('workers/versions/feature/thumbnails_generator/');
      expect(missing.statusCode).toBe(404);
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id, {
        feature: 'thumbnails_generator',
        state: 'available',
      });
      const response = await as('verified').get('workers/versions/feature/thumbnails_generator/');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(version);
      const second = await as('manager').post(`workers/${worker.id}/versions/`, {
        feature: 'thumbnails_generator',
      });
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual(
        validation(
          'feature',
          'A worker version already provides the feature thumbnails_generator.',
          'unique',
        ),
      );
      expect((await as('verified').get('workers/versions/feature/teleport/')).statusCode).toBe(404);
    });

    it.each([
      [{ gpu_usage: 'required' }, 'A version providing a feature cannot require a GPU or a model.'],
      [
        { model_usage: 'required' },
        'A version providing a feature cannot require a GPU or a model.',
      ],
      [
        {
          configuration: {
            user_configuration: {
              options: {
                title: 'Options',
                type: 'group',
                children: { size: { title: 'Size', type: 'int' } },
              },
            },
          },
        },
        'A version providing a feature cannot have a required setting without a default.',
      ],
    ])('refuses a feature version that could not run unattended: %j', async (body, detail) => {
      const worker = await publishWorker(as('manager'));
      const response = await as('manager').post(`workers/${worker.id}/versions/`, {
        ...body,
        feature: 'csv_export',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation('feature', detail));
      const fine = await as('manager').post(`workers/${worker.id}/versions/`, body);
      expect(fine.statusCode).toBe(201);
    });

    it('refuses unverified users', async () => {
      const response = await as('unverified').get('workers/versions/feature/pdf_export/');
      expect(response.statusCode).toBe(403);
    });
  });

  describe('GET /workers/versions/{id}/fields/', () => {
    it('lists the schema’s fields in order, group children after their group, with stable ids', async () => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id, {
        configuration: { user_configuration: FULL_SCHEMA },
      });
      const response = await as('verified').get(`workers/versions/${version.id}/fields/`);
      expect(response.statusCode).toBe(200);
      const fields = response.json().results as {
        id: string;
        parent_id: string | null;
        key: string;
        children: string[];
      }[];
      expect(response.json().count).toBe(9);
      expect(fields.map((field) => field.key)).toEqual([
        'batch',
        'threshold',
        'language',
        'notes',
        'model',
        'tags',
        'options',
        'deskew',
        'labels',
      ]);
      expect(fields[0]).toEqual({
        id: expect.stringMatching(UUID),
        parent_id: null,
        key: 'batch',
        type: 'int',
        title: 'Batch size',
        required: true,
        default: 8,
        choices: null,
        subtype: null,
        multiline: false,
        help_text: '',
        children: [],
      });
      expect(fields[2]).toMatchObject({ type: 'enum', choices: ['fra', 'eng'] });
      expect(fields[3]).toMatchObject({ type: 'text', required: false, multiline: true });
      expect(fields[5]).toMatchObject({ type: 'list', subtype: 'string' });
      const group = fields[6]!;
      expect(group).toMatchObject({ type: 'group', parent_id: null });
      expect(group.children).toEqual([fields[7]!.id, fields[8]!.id]);
      expect(fields[7]!.parent_id).toBe(group.id);
      const again = await as('verified').get(`workers/versions/${version.id}/fields/?page_size=2`);
      expect(again.json().results.map((field: { id: string }) => field.id)).toEqual([
        fields[0]!.id,
        fields[1]!.id,
      ]);
      expect(new Set(fields.map((field) => field.id)).size).toBe(9);
    });

    it('gives a key holding a dot an id of its own', async () => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id, {
        configuration: {
          user_configuration: {
            'a.b': { title: 'Dotted', type: 'int' },
            a: { title: 'Group', type: 'group', children: { b: { title: 'Child', type: 'int' } } },
          },
        },
      });
      const fields = (await as('verified').get(`workers/versions/${version.id}/fields/`)).json()
        .results as { id: string }[];
      expect(new Set(fields.map((field) => field.id)).size).toBe(3);
    });

    it('answers an empty list for a version without a schema, 404 for an unknown one', async () => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id);
      const response = await as('verified').get(`workers/versions/${version.id}/fields/`);
      expect(response.json()).toMatchObject({ count: 0, results: [] });
      const unknown = await as('verified').get(`workers/versions/${UNKNOWN_ID}/fields/`);
      expect(unknown.statusCode).toBe(404);
    });

    it('refuses anonymous visitors', async () => {
      const worker = await publishWorker(as('manager'));
      const version = await publishVersion(as('manager'), worker.id);
      const response = await as('anonymous').get(`workers/versions/${version.id}/fields/`);
      expect(response.statusCode).toBe(401);
    });
  });
});
