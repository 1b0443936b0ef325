import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { NOT_FOUND, UNKNOWN_ID, UUID, denied, invalidPk, validation } from '../expectedErrors';
import {
  clientAs,
  makeModel,
  makeModelCast,
  makeVersion,
  type ModelCast,
  type ModelRole,
} from './fixtures';

const NOT_CONTRIBUTOR = denied('A contributor access level is required to edit a model');
const ARCHIVE = Buffer.from('pretend this is a tar.zst archive');

describeEachDialect('model versions', ({ t }) => {
  let cast: ModelCast;
  let modelId: string;
  const as = (role: ModelRole | 'anonymous') => clientAs(t().app, cast, role);
  const idsOf = (page: { results: { id: string }[] }) => page.results.map((v) => v.id);

  beforeAll(async () => {
    cast = await makeModelCast(t().app);
    modelId = await makeModel(t().app, cast, { name: 'Versioned' });
  });

  describe('POST /model/{id}/versions/', () => {
    it('creates an empty version waiting for its archive', async () => {
      const response = await as('contributor').post(`model/${modelId}/versions/`, {
        tag: 'v1',
        description: 'First',
        configuration: { batch: 4 },
      });
      expect(response.statusCode).toBe(201);
      const version = response.json();
      expect(version).toEqual({
        id: expect.stringMatching(UUID),
        model_id: modelId,
        model: { id: modelId, name: 'Versioned' },
        state: 'created',
        parent: null,
        tag: 'v1',
        description: 'First',
        configuration: { batch: 4 },
        size: null,
        hash: null,
        archive_hash: null,
        created: expect.any(String),
        updated: expect.any(String),
        s3_url: null,
        s3_put_url: `http://localhost:80/api/v1/modelversion/${version.id}/upload/`,
      });
      const child = await as('owner').post(`model/${modelId}/versions/`, { parent: version.id });
      expect([child.statusCode, child.json().parent, child.json().tag]).toEqual([
        201,
        version.id,
        null,
      ]);
    });

    it('refuses guests, readers and outsiders', async () => {
      const publicId = await makeModel(t().app, cast, { public: true });
      const guest = await as('guest').post(`model/${modelId}/versions/`, {});
      expect([guest.statusCode, guest.json()]).toEqual([403, NOT_CONTRIBUTOR]);
      const reader = await as('outsider').post(`model/${publicId}/versions/`, {});
      expect([reader.statusCode, reader.json()]).toEqual([403, NOT_CONTRIBUTOR]);
      const outsider = await as('outsider').post(`model/${modelId}/versions/`, {});
      expect([outsider.statusCode, outsider.json()]).toEqual([404, NOT_FOUND]);
      expect((await as('anonymous').post(`model/${modelId}/versions/`, {})).statusCode).toBe(401);
      expect((await as('siteAdmin').post(`model/${modelId}/versions/`, {})).statusCode).toBe(201);
    });

    it('refuses bad input, taken tags, foreign parents and archived models', async () => {
      const otherModel = await makeModel(t().app, cast);
      const foreign = await makeVersion(t().app, cast, otherModel);
      await makeVersion(t().app, cast, modelId, { tag: 'taken' });
      const cases: [unknown, object][] = [
        [
          { tag: 'taken' },
          validation('tag', 'A version of this model already has this tag.', 'unique'),
        ],
        [{ parent: foreign }, invalidPk('parent', foreign)],
        [{ parent: 'x' }, validation('parent', 'Must be a valid UUID.')],
        [
          { configuration: [1] },
          validation('configuration', 'Invalid data. Expected a dictionary, but got list.'),
        ],
        [
          { tag: 'x'.repeat(51) },
          validation('tag', 'Ensure this field has no more than 50 characters.', 'max_length'),
        ],
        [{ description: 3 }, validation('description', 'Not a valid string.')],
      ];
      for (const [body, error] of cases) {
        const response = await as('owner').post(`model/${modelId}/versions/`, body);
        expect([response.statusCode, response.json()]).toEqual([400, error]);
      }
      const archived = await makeModel(t().app, cast, { archived: true });
      const refused = await as('owner').post(`model/${archived}/versions/`, {});
      expect([refused.statusCode, refused.json()]).toEqual([
        400,
        validation('model', 'This model is archived: it takes no new versions.', 'archived'),
      ]);
    });
  });

  describe('GET /model/{id}/versions/', () => {
    it('lists versions newest first; guests see only available tagged ones', async () => {
      const id = await makeModel(t().app, cast, { public: true });
      const untagged = await makeVersion(t().app, cast, id, {}, ARCHIVE);
      const tagged = await makeVersion(t().app, cast, id, { tag: 'v2' }, ARCHIVE);
      const pending = await makeVersion(t().app, cast, id, { tag: 'v3' });
      const all = await as('contributor').get(`model/${id}/versions/`);
      expect(idsOf(all.json())).toEqual([pending, tagged, untagged]);
      for (const role of ['guest', 'outsider'] as const) {
        expect(idsOf((await as(role).get(`model/${id}/versions/`)).json())).toEqual([tagged]);
      }
      expect(idsOf((await as('siteAdmin').get(`model/${id}/versions/`)).json())).toHaveLength(3);

      expect((await as('guest').get(`modelversion/${untagged}/`)).statusCode).toBe(404);
      expect((await as('guest').get(`modelversion/${pending}/`)).statusCode).toBe(404);
      expect((await as('guest').get(`modelversion/${tagged}/`)).json().tag).toBe('v2');
    });

    it('hides versions of unreadable models', async () => {
      const version = await makeVersion(t().app, cast, modelId, { tag: 'hidden' }, ARCHIVE);
      expect((await as('outsider').get(`model/${modelId}/versions/`)).statusCode).toBe(404);
      expect((await as('outsider').get(`modelversion/${version}/`)).statusCode).toBe(404);
      expect((await as('outsider').get(`modelversion/${version}/download/`)).statusCode).toBe(404);
      expect((await as('owner').get(`modelversion/${UNKNOWN_ID}/`)).statusCode).toBe(404);
      expect((await as('owner').get('modelversion/12/')).statusCode).toBe(404);
      expect((await as('anonymous').get(`modelversion/${version}/`)).statusCode).toBe(401);
    });
  });

  describe('PATCH and DELETE /modelversion/{id}/', () => {
    it('lets contributors edit a version', async () => {
      const version = await makeVersion(t().app, cast, modelId);
      const response = await as('contributor').patch(`modelversion/${version}/`, {
        tag: 'edited',
        description: 'Better',
        configuration: { size: 2 },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        tag: 'edited',
        description: 'Better',
        configuration: { size: 2 },
      });
      const untag = await as('owner').patch(`modelversion/${version}/`, { tag: null });
      expect(untag.json().tag).toBe(null);
    });

    it('refuses guests and bad input, changing nothing', async () => {
      const publicId = await makeModel(t().app, cast, { public: true });
      const shown = await makeVersion(t().app, cast, publicId, { tag: 'shown' }, ARCHIVE);
      const reader = await as('outsider').patch(`modelversion/${shown}/`, { tag: 'mine' });
      expect([reader.statusCode, reader.json()]).toEqual([403, NOT_CONTRIBUTOR]);
      const readerUpload = await as('outsider').put(`modelversion/${shown}/upload/`, ARCHIVE);
      expect([readerUpload.statusCode, readerUpload.json()]).toEqual([403, NOT_CONTRIBUTOR]);
      const version = await makeVersion(t().app, cast, modelId, { tag: 'keep' }, ARCHIVE);
      await makeVersion(t().app, cast, modelId, { tag: 'other' });
      const guest = await as('guest').patch(`modelversion/${version}/`, { tag: 'mine' });
      expect([guest.statusCode, guest.json()]).toEqual([403, NOT_CONTRIBUTOR]);
      const taken = await as('owner').patch(`modelversion/${version}/`, { tag: 'other' });
      expect(taken.statusCode).toBe(400);
      const bad = await as('owner').patch(`modelversion/${version}/`, { configuration: 'x' });
      expect(bad.statusCode).toBe(400);
      expect((await as('owner').get(`modelversion/${version}/`)).json().tag).toBe('keep');
    });

    it('deletes a version and its archive for contributors only', async () => {
      const version = await makeVersion(t().app, cast, modelId, { tag: 'doomed' }, ARCHIVE);
      const file = path.join(t().config.dataDir, 'models', version);
      expect(fs.existsSync(file)).toBe(true);
      expect((await as('guest').delete(`modelversion/${version}/`)).statusCode).toBe(403);
      expect((await as('outsider').delete(`modelversion/${version}/`)).statusCode).toBe(404);
      expect((await as('contributor').delete(`modelversion/${version}/`)).statusCode).toBe(204);
      expect((await as('owner').get(`modelversion/${version}/`)).statusCode).toBe(404);
      expect(fs.existsSync(file)).toBe(false);
    });
  });

  describe('upload and download', () => {
    it('stores the archive, then serves it to readers', async () => {
      const version = await makeVersion(t().app, cast, modelId, { tag: 'up' });
      const response = await as('contributor').put(`modelversion/${version}/upload/`, ARCHIVE, {
        'content-type': 'application/zstd',
      });
      expect(response.statusCode).toBe(200);
      const sha256 = createHash('sha256').update(ARCHIVE).digest('hex');
      expect(response.json()).toMatchObject({
        state: 'available',
        size: ARCHIVE.length,
        hash: sha256,
        archive_hash: sha256,
        s3_url: `http://localhost:80/api/v1/modelversion/${version}/download/`,
        s3_put_url: null,
      });
      for (const role of ['guest', 'siteAdmin'] as const) {
        const download = await as(role).get(`modelversion/${version}/download/`);
        expect(download.statusCode).toBe(200);
        expect(download.rawPayload.equals(ARCHIVE)).toBe(true);
        expect(download.headers['content-disposition']).toContain('Versioned-up.tar.zst');
      }
      const again = await as('owner').put(`modelversion/${version}/upload/`, ARCHIVE);
      expect([again.statusCode, again.json().errors[0].code]).toEqual([400, 'already_uploaded']);
    });

    it('refuses uploads from guests and outsiders, and downloads before the archive', async () => {
      const version = await makeVersion(t().app, cast, modelId);
      // Guests do not see versions without their archive at all.
      const guest = await as('guest').put(`modelversion/${version}/upload/`, ARCHIVE);
      expect([guest.statusCode, guest.json()]).toEqual([404, NOT_FOUND]);
      const outsider = await as('outsider').put(`modelversion/${version}/upload/`, ARCHIVE);
      expect(outsider.statusCode).toBe(404);
      const early = await as('owner').get(`modelversion/${version}/download/`);
      expect(early.statusCode).toBe(404);
      expect((await as('owner').get(`modelversion/${version}/`)).json().state).toBe('created');
    });

    it('marks a version whose upload is short of its Content-Length in error, keeping no file', async () => {
      const version = await makeVersion(t().app, cast, modelId);
      const response = await as('owner').put(`modelversion/${version}/upload/`, ARCHIVE, {
        'content-length': String(ARCHIVE.length + 10),
      });
      expect(response.statusCode).toBe(400);
      const after = (await as('owner').get(`modelversion/${version}/`)).json();
      expect(after).toMatchObject({ state: 'error', size: null, hash: null });
      expect(after.s3_put_url).toContain('/upload/');
      expect(
        fs
          .readdirSync(path.join(t().config.dataDir, 'models'))
          .filter((n) => n.startsWith(version)),
      ).toEqual([]);
      // A failed upload may be tried again.
      const retry = await as('owner').put(`modelversion/${version}/upload/`, ARCHIVE);
      expect([retry.statusCode, retry.json().state]).toEqual([200, 'available']);
    });

    it('keeps exactly one of two uploads racing each other', async () => {
      const version = await makeVersion(t().app, cast, modelId);
      const first = Buffer.alloc(200_000, 1);
      const second = Buffer.alloc(150_000, 2);
      const responses = await Promise.all(
        [first, second].map((body) => as('owner').put(`modelversion/${version}/upload/`, body)),
      );
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([200, 400]);
      const loser = responses.find((response) => response.statusCode === 400)!;
      expect(loser.json().errors[0].code).toBe('already_uploaded');
      const stored = (await as('owner').get(`modelversion/${version}/`)).json();
      const file = fs.readFileSync(path.join(t().config.dataDir, 'models', version));
      expect(stored.size).toBe(file.length);
      expect(stored.hash).toBe(createHash('sha256').update(file).digest('hex'));
      const names = fs.readdirSync(path.join(t().config.dataDir, 'models'));
      expect(names.filter((name) => name.startsWith(version))).toEqual([version]);
    });

    it('refuses anonymous uploads and downloads', async () => {
      const version = await makeVersion(t().app, cast, modelId, { tag: 'anon' }, ARCHIVE);
      const pending = await makeVersion(t().app, cast, modelId);
      expect((await as('anonymous').get(`modelversion/${version}/download/`)).statusCode).toBe(401);
      expect(
        (await as('anonymous').put(`modelversion/${pending}/upload/`, ARCHIVE)).statusCode,
      ).toBe(401);
      expect((await as('anonymous').get(`model/${modelId}/versions/`)).statusCode).toBe(401);
      expect((await as('unverified').get(`model/${modelId}/versions/`)).statusCode).toBe(403);
      expect((await as('owner').get(`modelversion/${pending}/`)).json().state).toBe('created');
    });

    it('refuses an empty archive', async () => {
      const version = await makeVersion(t().app, cast, modelId);
      const response = await as('owner').put(`modelversion/${version}/upload/`, Buffer.alloc(0));
      expect([response.statusCode, response.json().errors[0].code]).toEqual([400, 'empty']);
    });
  });
});
