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
  client,
  makeWorkerCast,
  publishWorker,
  type WorkerCast,
  type WorkerRole,
} from './fixtures';

const UNVERIFIED = denied('You must verify your email address to perform this action.');
const NOT_MANAGER = denied('You do not have permission to manage workers.');

describeEachDialect('workers', ({ t }) => {
  let cast: WorkerCast;
  const as = (role: WorkerRole | 'anonymous') => client(t().app, cast, role);

  beforeAll(async () => {
    cast = await makeWorkerCast(t().app);
  });

  describe('POST /workers/', () => {
    it('publishes a worker (201), then answers 200 with the same worker for its slug', async () => {
      const body = {
        name: 'Tesseract',
        slug: 'tesseract-post',
        type: 'recognizer',
        description: 'OCR',
        repository_url: 'https://gitlab.example.org/workers/tesseract',
      };
      const created = await as('manager').post('workers/', body);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Tesseract',
        slug: 'tesseract-post',
        type: 'recognizer',
        description: 'OCR',
        repository_url: 'https://gitlab.example.org/workers/tesseract',
        archived: false,
      });
      const again = await as('admin').post('workers/', { ...body, name: 'Renamed' });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(created.json());
    });

    it('creates the worker type an unknown slug names', async () => {
      await publishWorker(as('manager'), { type: 'line-splitter' });
      const types = await as('verified').get('workers/types/?page_size=100');
      expect(types.json().results).toContainEqual({
        id: expect.stringMatching(UUID),
        slug: 'line-splitter',
        display_name: 'line-splitter',
      });
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
      ['verified', 403, NOT_MANAGER],
    ] as const)('refuses %s (%i) and creates nothing', async (role, status, body) => {
      const response = await as(role).post('workers/', {
        name: 'Nope',
        slug: `nope-${role}`,
        type: 'classifier',
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
      const found = await t()
        .app.db.selectFrom('workers')
        .select('id')
        .where('slug', '=', `nope-${role}`)
        .execute();
      expect(found).toEqual([]);
    });

    it.each([
      [{ slug: 'a', type: 'ner' }, validation('name', 'This field is required.', 'required')],
      [
        { name: 'A', slug: 'has space', type: 'ner' },
        validation(
          'slug',
          'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.',
        ),
      ],
      [{ name: 'A', slug: 'ok-slug', type: 3 }, validation('type', 'Not a valid string.')],
      [
        { name: 'A', slug: 'ok-slug2', type: 'ner', repository_url: 'not a url' },
        validation('repository_url', 'Enter a valid URL.'),
      ],
    ])('answers 400 to a bad body %j', async (body, error) => {
      const response = await as('manager').post('workers/', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(error);
    });

    it('answers 400 to malformed JSON', async () => {
      const response = await as('manager').post('workers/', '{"name":');
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].code).toBe('parse_error');
    });
  });

  describe('GET /workers/', () => {
    let ids: { ocr: string; ner: string; archived: string };

    beforeAll(async () => {
      const manager = as('manager');
      ids = {
        ocr: (
          await publishWorker(manager, { name: 'Kraken OCR', slug: 'kraken_x', type: 'recognizer' })
        ).id,
        ner: (await publishWorker(manager, { name: 'Entities', slug: 'spacy-ner', type: 'ner' }))
          .id,
        archived: (
          await publishWorker(manager, { name: 'Old kraken', slug: 'old', type: 'recognizer' })
        ).id,
      };
      await manager.patch(`workers/${ids.archived}/`, { archived: true });
    });

    const idsOf = async (query: string) => {
      const response = await as('verified').get(`workers/?page_size=1000&${query}`);
      expect(response.statusCode).toBe(200);
      return (response.json().results as { id: string }[]).map((worker) => worker.id);
    };

    it('lists workers in pages, by name', async () => {
      const response = await as('verified').get('workers/?page_size=2');
      expect(response.statusCode).toBe(200);
      const page = response.json();
      expect(page).toMatchObject({
        number: 1,
        previous: null,
        next: expect.stringContaining('page=2'),
      });
      expect(page.count).toBeGreaterThanOrEqual(3);
      const all = await as('verified').get('workers/?page_size=1000');
      const names = (all.json().results as { name: string }[]).map((w) => w.name.toLowerCase());
      expect(names).toEqual([...names].sort());
    });

    it('filters by name or slug (any case), by type and by archived', async () => {
      expect(await idsOf('name=KRAKEN')).toEqual(expect.arrayContaining([ids.ocr, ids.archived]));
      expect(await idsOf('name=KRAKEN')).not.toContain(ids.ner);
      expect(await idsOf('name=spacy')).toEqual([ids.ner]);
      expect(await idsOf('name=%25')).toEqual([]);
      expect(await idsOf('type=ner')).toContain(ids.ner);
      expect(await idsOf('type=ner')).not.toContain(ids.ocr);
      expect(await idsOf('archived=true')).toEqual([ids.archived]);
      expect(await idsOf('archived=false')).not.toContain(ids.archived);
    });

    it('answers 400 to a bad archived value', async () => {
      const response = await as('verified').get('workers/?archived=maybe');
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].attr).toBe('archived');
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
    ] as const)('refuses %s', async (role, status, body) => {
      const response = await as(role).get('workers/');
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
    });
  });

  describe('GET and PATCH /workers/{id}/', () => {
    it('reads a worker', async () => {
      const worker = await publishWorker(as('manager'));
      const response = await as('verified').get(`workers/${worker.id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: worker.id, archived: false });
    });

    it('answers 404 to unknown and malformed ids', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const response = await as('verified').get(`workers/${id}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it('updates name, type, description and archived for managers and admins', async () => {
      const worker = await publishWorker(as('manager'));
      const response = await as('manager').patch(`workers/${worker.id}/`, {
        name: 'Better name',
        type: 'dla',
        description: 'Finds zones',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        name: 'Better name',
        type: 'dla',
        description: 'Finds zones',
      });
      const archived = await as('admin').patch(`workers/${worker.id}/`, { archived: true });
      expect(archived.json().archived).toBe(true);
      expect((await as('verified').get(`workers/${worker.id}/`)).json()).toMatchObject({
        name: 'Better name',
        archived: true,
      });
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
      ['verified', 403, NOT_MANAGER],
    ] as const)('refuses %s changes', async (role, status, body) => {
      const worker = await publishWorker(as('manager'));
      const response = await as(role).patch(`workers/${worker.id}/`, { name: 'Hijacked' });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
      expect((await as('verified').get(`workers/${worker.id}/`)).json().name).toBe(worker.name);
    });

    it('answers 400 to bad fields and changes nothing', async () => {
      const worker = await publishWorker(as('manager'));
      const response = await as('manager').patch(`workers/${worker.id}/`, {
        name: 'Fine',
        archived: 'yes',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation('archived', 'Must be a valid boolean.'));
      expect((await as('verified').get(`workers/${worker.id}/`)).json().name).toBe(worker.name);
    });
  });

  describe('GET /workers/types/', () => {
    it('lists the known types with their names', async () => {
      const response = await as('verified').get('workers/types/?page_size=100');
      expect(response.statusCode).toBe(200);
      const bySlug = Object.fromEntries(
        (response.json().results as { slug: string; display_name: string }[]).map((type) => [
          type.slug,
          type.display_name,
        ]),
      );
      expect(bySlug).toMatchObject({
        classifier: 'Classifier',
        recognizer: 'Recognizer',
        ner: 'NER',
        dla: 'Document layout analysis',
        'word-segmenter': 'Word segmenter',
        'paragraph-creator': 'Paragraph creator',
      });
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverified', 403, UNVERIFIED],
    ] as const)('refuses %s', async (role, status, body) => {
      const response = await as(role).get('workers/types/');
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(body);
    });
  });
});
