import { settleOrphanImportTasks } from '../../server/services/filesProcess';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { ImportJobPayload } from '../../server/imports/job';
import type { ImportReport } from '../../server/imports/report';
import {
  LEFTOVER_AGE_MS,
  MAX_FILE_SIZE,
  dataFilePath,
  defaultFolderName,
  safeFileName,
  stagingNames,
  stagingRoot,
  sweepLeftovers,
} from '../../server/services/dataFiles';
import {
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  clientFor,
  denied,
  insertElements,
  makeActors,
  makeCorpus,
  validation,
  type Actors,
} from './elementsFixtures';
import { Client, describeEachDialect } from './harness';

interface DataFileBody {
  id: string;
  name: string;
  hash: string | null;
  size: number;
  content_type: string;
  status: string;
  s3_url: null;
  s3_put_url: string | null;
  corpus: string;
  created: string;
}

const md5 = (content: Buffer | string) => createHash('md5').update(content).digest('hex');

/** The path part of an absolute s3_put_url, for app.inject. */
const pathOf = (url: string) => new URL(url).pathname;

describe('staging names', () => {
  it('keeps a name to one safe path segment', () => {
    expect(safeFileName('page 1.jpg')).toBe('page 1.jpg');
    expect(safeFileName('../../etc/passwd')).toBe('____etc_passwd');
    expect(safeFileName('a/b\\c.png')).toBe('a_b_c.png');
    expect(safeFileName('..')).toBe('_');
    expect(safeFileName('Vol. 1..2.jpg')).toBe('Vol. 1_2.jpg');
    expect(safeFileName('.hidden.xml')).toBe('_hidden.xml');
    expect(safeFileName('tab\there\u0000.tif')).toBe('tab_here_.tif');
    expect(safeFileName('   ')).toBe('file');
    const long = safeFileName(`${'é'.repeat(300)}.tiff`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(200);
    expect(long.endsWith('.tiff')).toBe(true);
  });

  it('renames names met again, ignoring case', () => {
    expect(stagingNames(['p.jpg', 'P.JPG', 'p.jpg', 'q.xml', 'a/p.jpg'])).toEqual([
      'p.jpg',
      'P (2).JPG',
      'p (3).jpg',
      'q.xml',
      'a_p.jpg',
    ]);
  });

  it('names a default folder after the date and time', () => {
    expect(defaultFolderName(new Date('2024-05-01T10:04:59Z'))).toBe('Import 2024-05-01 10:04');
  });
});

describeEachDialect('process files API', ({ t }) => {
  let app: FastifyInstance;
  let actors: Actors;
  let corpusId: string;
  let otherCorpusId: string;
  let folders: Record<string, string>;
  let owner: Client;
  let contributor: Client;

  beforeAll(async () => {
    app = t().app;
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Letters' });
    otherCorpusId = await makeCorpus(app, actors, { name: 'Registers' });
    folders = await insertElements(app, corpusId, [{ name: 'Box 1', type: 'folder' }]);
    Object.assign(
      folders,
      await insertElements(app, otherCorpusId, [{ name: 'Elsewhere', type: 'folder' }]),
    );
    owner = clientFor(app, actors, 'owner');
    contributor = clientFor(app, actors, 'contributor');
  });

  async function declare(
    client: Client,
    body: Partial<{ corpus: string; name: string; size: number; content_type: string }> & {
      hash?: string | null;
    } = {},
  ): Promise<DataFileBody> {
    const response = await client.post('process/files/create/', {
      corpus: corpusId,
      name: 'page.jpg',
      size: 5,
      content_type: 'image/jpeg',
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  /** Declares and uploads a file; returns it as the upload answers. */
  async function uploaded(
    client: Client,
    name: string,
    content: Buffer | string,
    corpus = corpusId,
  ): Promise<DataFileBody> {
    const bytes = Buffer.from(content);
    const file = await declare(client, {
      corpus,
      name,
      size: bytes.length,
      content_type: 'application/octet-stream',
    });
    const response = await client.put(pathOf(file.s3_put_url!), bytes, {
      'content-type': 'application/octet-stream',
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  function uploadsLeft(): string[] {
    const dir = path.join(t().config.dataDir, 'uploads');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  }

  async function jobPayload(id: string): Promise<ImportJobPayload> {
    const row = await app.db
      .selectFrom('jobs')
      .select('payload')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return JSON.parse(row.payload) as ImportJobPayload;
  }

  async function jobCount(): Promise<number> {
    const row = await app.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('CreateDataFile', () => {
    it('declares a file and answers where to put its content', async () => {
      const response = await contributor.post('process/files/create/', {
        corpus: corpusId,
        name: 'Folio 12r.tif',
        size: 1234,
        content_type: 'image/tiff',
      });
      expect(response.statusCode).toBe(201);
      const file = response.json() as DataFileBody;
      expect(file).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Folio 12r.tif',
        hash: null,
        size: 1234,
        content_type: 'image/tiff',
        status: 'unchecked',
        s3_url: null,
        s3_put_url: `http://localhost:80/api/v1/process/file/${file.id}/upload/`,
        corpus: corpusId,
        created: expect.any(String),
      });
    });

    it('takes sizes up to the limit, beyond 32-bit integers', async () => {
      const file = await declare(owner, { size: MAX_FILE_SIZE, name: 'map.tif' });
      expect(file.size).toBe(MAX_FILE_SIZE);
      const read = await owner.get(`process/file/${file.id}/`);
      expect(read.json().size).toBe(MAX_FILE_SIZE);
    });

    it('refuses anonymous, unverified, guest and outside callers', async () => {
      const body = { corpus: corpusId, name: 'a.jpg', size: 3, content_type: 'image/jpeg' };
      expect(
        (await clientFor(app, actors, 'anonymous').post('process/files/create/', body)).statusCode,
      ).toBe(401);
      const unverified = await clientFor(app, actors, 'unverifiedAdmin').post(
        'process/files/create/',
        body,
      );
      expect(unverified.statusCode).toBe(403);
      expect(unverified.json()).toEqual(
        denied('You must verify your email address to perform this action.'),
      );
      const guest = await clientFor(app, actors, 'guest').post('process/files/create/', body);
      expect(guest.statusCode).toBe(403);
      expect(guest.json()).toEqual(denied('You do not have contributor access to this project.'));
      const outsider = await clientFor(app, actors, 'outsider').post('process/files/create/', body);
      expect(outsider.statusCode).toBe(400);
      expect(outsider.json()).toEqual(
        validation('corpus', `Invalid pk "${corpusId}" - object does not exist.`, 'does_not_exist'),
      );
    });

    it('names every bad field', async () => {
      const missing = await owner.post('process/files/create/', {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        type: 'validation_error',
        errors: ['corpus', 'name', 'size', 'content_type'].map((attr) => ({
          code: 'required',
          detail: 'This field is required.',
          attr,
        })),
      });
      const cases: [Record<string, unknown>, ReturnType<typeof validation>][] = [
        [{ corpus: 'nope' }, validation('corpus', 'Must be a valid UUID.')],
        [{ name: '  ' }, validation('name', 'This field may not be blank.', 'blank')],
        [
          { size: 0 },
          validation('size', 'Ensure this value is greater than or equal to 1.', 'min_value'),
        ],
        [
          { size: MAX_FILE_SIZE + 1 },
          validation(
            'size',
            `Ensure this value is less than or equal to ${MAX_FILE_SIZE}.`,
            'max_value',
          ),
        ],
        [{ size: '12' }, validation('size', 'A valid integer is required.')],
        [{ size: 1.5 }, validation('size', 'A valid integer is required.')],
        [
          { hash: 'abc' },
          validation('hash', 'Enter the MD5 hash of the content: 32 hexadecimal digits.'),
        ],
      ];
      for (const [patch, expected] of cases) {
        const response = await owner.post('process/files/create/', {
          corpus: corpusId,
          name: 'a.jpg',
          size: 3,
          content_type: 'image/jpeg',
          ...patch,
        });
        expect(response.statusCode, JSON.stringify(patch)).toBe(400);
        expect(response.json(), JSON.stringify(patch)).toEqual(expected);
      }
      const notJson = await owner.post('process/files/create/', Buffer.from('x'), {
        'content-type': 'text/plain',
      });
      expect(notJson.statusCode).toBe(415);
      expect(notJson.json().type).toBe('client_error');
      const list = await owner.post('process/files/create/', '[]');
      expect(list.statusCode).toBe(400);
      expect(list.json().errors[0].attr).toBe('non_field_errors');
    });
  });

  describe('upload', () => {
    it('stores the content, checks it and gives its MD5', async () => {
      const file = await declare(owner, { size: 11, content_type: 'image/jpeg' });
      const response = await owner.put(pathOf(file.s3_put_url!), Buffer.from('hello world'), {
        'content-type': 'image/jpeg',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: file.id,
        status: 'checked',
        hash: md5('hello world'),
        s3_put_url: null,
        size: 11,
      });
      const stored = dataFilePath(t().config.dataDir, file.id);
      expect(fs.readFileSync(stored, 'utf8')).toBe('hello world');
      expect(uploadsLeft().filter((name) => name.endsWith('.part'))).toEqual([]);
      expect((await owner.get(`process/file/${file.id}/`)).json().status).toBe('checked');
    });

    it('accepts any content type, JSON and XML included, and none at all', async () => {
      for (const [type, content] of [
        ['application/json', '{"@context": "x"}'],
        ['application/ld+json;profile="http://iiif.io/api/presentation/2/context.json"', '{}'],
        ['text/xml; charset=utf-8', '<PcGts/>'],
        ['multipart/form-data; boundary=x', 'abc'],
        [null, 'raw'],
      ] as const) {
        const file = await declare(owner, { size: Buffer.byteLength(content) });
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        const response = await owner.put(pathOf(file.s3_put_url!), Buffer.from(content), headers);
        expect(response.statusCode, `${type}: ${response.body}`).toBe(200);
        expect(fs.readFileSync(dataFilePath(t().config.dataDir, file.id), 'utf8')).toBe(content);
      }
    });

    it('streams bodies above the 10 MB JSON limit', async () => {
      const content = Buffer.alloc(11 * 1024 * 1024, 7);
      const file = await declare(owner, { size: content.length, name: 'big.tif' });
      const response = await owner.put(pathOf(file.s3_put_url!), content, {
        'content-type': 'image/tiff',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().hash).toBe(md5(content));
      expect(fs.statSync(dataFilePath(t().config.dataDir, file.id)).size).toBe(content.length);
    });

    it('keeps nothing when the size differs from the declared one, and may be tried again', async () => {
      const file = await declare(owner, { size: 5 });
      const before = uploadsLeft();
      const short = await owner.put(pathOf(file.s3_put_url!), Buffer.from('abc'));
      expect(short.statusCode).toBe(400);
      expect(short.json()).toEqual({
        type: 'client_error',
        errors: [
          {
            code: 'size_mismatch',
            detail: 'The uploaded content is 3 bytes long, but the file was declared with 5 bytes.',
            attr: null,
          },
        ],
      });
      const long = await owner.put(pathOf(file.s3_put_url!), Buffer.from('abcdefgh'));
      expect(long.statusCode).toBe(400);
      expect(long.json().errors[0].code).toBe('size_mismatch');
      expect(uploadsLeft()).toEqual(before);
      expect((await owner.get(`process/file/${file.id}/`)).json().status).toBe('unchecked');

      const retry = await owner.put(pathOf(file.s3_put_url!), Buffer.from('abcde'));
      expect(retry.statusCode).toBe(200);
      expect(retry.json().status).toBe('checked');
    });

    it('checks the length of a body sent without Content-Length', async () => {
      const file = await declare(owner, { size: 5 });
      const { Readable } = await import('node:stream');
      const response = await app.inject({
        method: 'PUT',
        url: pathOf(file.s3_put_url!),
        headers: {
          authorization: `Token ${actors.owner.token}`,
          'content-type': 'image/jpeg',
          'transfer-encoding': 'chunked',
        },
        payload: Readable.from([Buffer.from('abc'), Buffer.from('defg')]),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toMatchObject({
        code: 'size_mismatch',
        detail: 'The uploaded content is longer than the 5 bytes the file was declared with.',
      });
      expect(fs.existsSync(dataFilePath(t().config.dataDir, file.id))).toBe(false);
    });

    it('refuses content that does not match the declared hash', async () => {
      const file = await declare(owner, { size: 5, hash: md5('abcde').toUpperCase() });
      expect(file.hash).toBe(md5('abcde'));
      const wrong = await owner.put(pathOf(file.s3_put_url!), Buffer.from('abcdf'));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors[0].code).toBe('hash_mismatch');
      expect(fs.existsSync(dataFilePath(t().config.dataDir, file.id))).toBe(false);
      const right = await owner.put(pathOf(file.s3_put_url!), Buffer.from('abcde'));
      expect(right.statusCode).toBe(200);
    });

    it('lets only the creator (or a site admin) upload, once', async () => {
      const file = await declare(contributor, { size: 3 });
      const url = pathOf(file.s3_put_url!);
      const body = Buffer.from('abc');
      const other = await owner.put(url, body);
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual(
        denied('Only the user who created this file may upload its content.'),
      );
      expect((await clientFor(app, actors, 'anonymous').put(url, body)).statusCode).toBe(401);
      expect((await clientFor(app, actors, 'outsider').put(url, body)).json()).toEqual(NOT_FOUND);
      expect((await clientFor(app, actors, 'guest').put(url, body)).statusCode).toBe(403);
      expect(uploadsLeft()).not.toContain(file.id);

      const admin = await clientFor(app, actors, 'siteAdmin').put(url, body);
      expect(admin.statusCode).toBe(200);
      const again = await contributor.put(url, body);
      expect(again.statusCode).toBe(400);
      expect(again.json().errors[0]).toMatchObject({
        code: 'already_uploaded',
        detail: 'The content of this file has already been uploaded.',
      });
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
        const response = await owner.put(`process/file/${id}/upload/`, Buffer.from('abc'));
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it('checks the CSRF token of browser sessions', async () => {
      const file = await declare(owner, { size: 3 });
      const browser = await new Client(app).prime();
      const login = await browser.post('user/login/', {
        email: actors.owner.email,
        password: actors.owner.password,
      });
      expect(login.statusCode).toBe(200);
      const forged = await browser.put(pathOf(file.s3_put_url!), Buffer.from('abc'), {
        'x-csrftoken': 'forged',
      });
      expect(forged.statusCode).toBe(403);
      const sent = await browser.put(pathOf(file.s3_put_url!), Buffer.from('abc'));
      expect(sent.statusCode).toBe(200);
    });
  });

  describe('ListDataFiles, RetrieveDataFile', () => {
    it("lists a project's files, newest first, by page, to its readers", async () => {
      const corpus = await makeCorpus(app, actors, { name: 'Listing' });
      const ids: string[] = [];
      for (const name of ['one.jpg', 'two.jpg', 'three.jpg']) {
        ids.push((await declare(owner, { corpus, name })).id);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await declare(owner, { name: 'elsewhere.jpg' });
      const guest = clientFor(app, actors, 'guest');
      const first = await guest.get(`process/files/${corpus}/?page_size=2`);
      expect(first.statusCode).toBe(200);
      const page = first.json();
      expect(page).toMatchObject({
        count: 3,
        number: 1,
        previous: null,
        next: `http://localhost/api/v1/process/files/${corpus}/?page_size=2&page=2`,
      });
      expect(page.results.map((file: DataFileBody) => file.name)).toEqual(['three.jpg', 'two.jpg']);
      expect(page.results[0]).toMatchObject({ corpus, status: 'unchecked', size: 5 });
      const second = (await guest.get(`process/files/${corpus}/?page_size=2&page=2`)).json();
      expect(second.results.map((file: DataFileBody) => file.id)).toEqual([ids[0]]);

      for (const url of [
        `process/files/${corpus}/`,
        `process/files/${UNKNOWN_ID}/`,
        'process/files/nope/',
      ]) {
        const response = await clientFor(app, actors, 'outsider').get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      expect((await guest.get(`process/files/${corpus}/?page=9`)).statusCode).toBe(404);
    });

    it('shows one file to readers of its project only', async () => {
      const file = await declare(owner);
      const read = await clientFor(app, actors, 'guest').get(`process/file/${file.id}/`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(file);
      for (const [role, id] of [
        ['outsider', file.id],
        ['anonymous', file.id],
        ['owner', UNKNOWN_ID],
        ['owner', 'nope'],
      ] as const) {
        const response = await clientFor(app, actors, role).get(`process/file/${id}/`);
        expect(response.statusCode, `${role} ${id}`).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('PartialUpdateDataFile, DestroyDataFile', () => {
    it('renames a file and checks its stored content on demand', async () => {
      const file = await declare(owner, { size: 3 });
      const renamed = await contributor.patch(`process/file/${file.id}/`, { name: 'f 1.jpg' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'f 1.jpg', status: 'unchecked' });

      const early = await owner.patch(`process/file/${file.id}/`, { status: 'checked' });
      expect(early.statusCode).toBe(400);
      expect(early.json()).toEqual(
        validation('status', 'The content of this file was not uploaded.'),
      );
      const bad = await owner.patch(`process/file/${file.id}/`, { status: 'error' });
      expect(bad.json()).toEqual(
        validation('status', '"error" is not a valid choice.', 'invalid_choice'),
      );
      const blank = await owner.patch(`process/file/${file.id}/`, { name: '' });
      expect(blank.json()).toEqual(validation('name', 'This field may not be blank.', 'blank'));

      // Content that is there (put by an administrator, say) is checked against the size.
      fs.mkdirSync(path.dirname(dataFilePath(t().config.dataDir, file.id)), { recursive: true });
      fs.writeFileSync(dataFilePath(t().config.dataDir, file.id), 'abcd');
      const wrong = await owner.patch(`process/file/${file.id}/`, { status: 'checked' });
      expect(wrong.json()).toEqual(
        validation(
          'status',
          'The stored content is 4 bytes long, but the file was declared with 3 bytes.',
        ),
      );
      fs.writeFileSync(dataFilePath(t().config.dataDir, file.id), 'abc');
      const checked = await owner.patch(`process/file/${file.id}/`, { status: 'checked' });
      expect(checked.statusCode).toBe(200);
      expect(checked.json()).toMatchObject({ status: 'checked', s3_put_url: null });
    });

    it('needs the write right to change or delete', async () => {
      const file = await declare(owner);
      const guest = clientFor(app, actors, 'guest');
      for (const response of [
        await guest.patch(`process/file/${file.id}/`, { name: 'x' }),
        await guest.delete(`process/file/${file.id}/`),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(
          denied('You do not have contributor access to this project.'),
        );
      }
      const outsider = clientFor(app, actors, 'outsider');
      expect((await outsider.delete(`process/file/${file.id}/`)).json()).toEqual(NOT_FOUND);
      expect((await outsider.patch(`process/file/${file.id}/`, { name: 'x' })).statusCode).toBe(
        404,
      );
      expect((await owner.delete('process/file/nope/')).statusCode).toBe(404);
      expect(
        (await clientFor(app, actors, 'anonymous').delete(`process/file/${file.id}/`)).statusCode,
      ).toBe(401);
    });

    it('deletes the file and its content', async () => {
      const file = await uploaded(contributor, 'gone.jpg', 'bytes');
      const stored = dataFilePath(t().config.dataDir, file.id);
      expect(fs.existsSync(stored)).toBe(true);
      const response = await owner.delete(`process/file/${file.id}/`);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(fs.existsSync(stored)).toBe(false);
      expect((await owner.get(`process/file/${file.id}/`)).statusCode).toBe(404);
    });
  });

  describe('CreateProcessFromFiles', () => {
    it('stages the files under their names and enqueues the import into a folder', async () => {
      const a = await uploaded(contributor, 'p1.jpg', 'image one');
      const b = await uploaded(contributor, 'p1.xml', '<PcGts/>');
      const c = await uploaded(contributor, 'P1.jpg', 'image two');
      const d = await uploaded(contributor, '../evil.png', 'png');
      const response = await contributor.post('process/fromfiles/', {
        files: [a.id, b.id, c.id, d.id, a.id.toUpperCase()],
        folder_id: folders['Box 1'],
      });
      expect(response.statusCode, response.body).toBe(201);
      const { job, ...process } = response.json();
      expect(process).toMatchObject({
        id: expect.stringMatching(UUID),
        name: 'Import of 4 files into Box 1',
        mode: 'files',
        corpus: corpusId,
        state: 'pending',
        creator: { id: actors.contributor.id },
        started: expect.any(String),
        finished: null,
        tasks: [
          {
            slug: 'import_files',
            state: 'pending',
            run: 0,
            depth: 0,
            parents: [],
            worker_run: null,
            agent: null,
          },
        ],
      });
      const task = await app.db
        .selectFrom('tasks')
        .select(['kind', 'process_id'])
        .where('id', '=', process.tasks[0].id)
        .executeTakeFirstOrThrow();
      expect(task).toEqual({ kind: 'import', process_id: process.id });
      expect(job).toEqual({
        id: expect.stringMatching(UUID),
        description: 'Import of 4 files into Box 1',
        status: 'queued',
        progress: 0,
        enqueued_at: expect.any(String),
        started_at: null,
        ended_at: null,
        kind: 'import',
        corpus_id: corpusId,
        result: null,
        error: null,
      });
      const seen = await contributor.get(`jobs/${job.id}/`);
      expect(seen.json()).toEqual(job);

      const payload = await jobPayload(job.id);
      expect(payload).toEqual({
        corpusId,
        userId: actors.contributor.id,
        parentId: folders['Box 1'],
        folderName: null,
        source: expect.any(String),
        removeSourceAfter: true,
        taskId: process.tasks[0].id,
      });
      expect(path.dirname(payload.source)).toBe(stagingRoot(t().config.dataDir));
      expect(fs.readdirSync(payload.source).sort()).toEqual(
        ['P1 (2).jpg', '__evil.png', 'p1.jpg', 'p1.xml'].sort(),
      );
      const read = (name: string) => fs.readFileSync(path.join(payload.source, name), 'utf8');
      expect(read('p1.jpg')).toBe('image one');
      expect(read('p1.xml')).toBe('<PcGts/>');
      expect(read('P1 (2).jpg')).toBe('image two');
      expect(read('__evil.png')).toBe('png');
      // The uploads stay, listed for another import or deletion.
      expect(fs.existsSync(dataFilePath(t().config.dataDir, a.id))).toBe(true);
    });

    it('imports into a new folder: named "Import <date>" by default, or as asked', async () => {
      const file = await uploaded(owner, 'scan.tif', 'tiff');
      const unnamed = await owner.post('process/fromfiles/', { files: [file.id] });
      expect(unnamed.statusCode).toBe(201);
      const payload = await jobPayload(unnamed.json().job.id);
      expect(payload).toMatchObject({ parentId: null, removeSourceAfter: true });
      expect(payload.folderName).toMatch(/^Import \d{4}-\d\d-\d\d \d\d:\d\d$/);
      expect(unnamed.json().job.description).toBe(`Import of 1 file into ${payload.folderName}`);

      const named = await owner.post('process/fromfiles/', {
        files: [file.id],
        folder_id: folders['Box 1'],
        folder_name: '  Register 3 ',
      });
      expect(await jobPayload(named.json().job.id)).toMatchObject({
        parentId: folders['Box 1'],
        folderName: 'Register 3',
      });
      const bare = await owner.post('process/fromfiles/', { files: [file.id], folder_name: null });
      expect(await jobPayload(bare.json().job.id)).toMatchObject({
        parentId: null,
        folderName: null,
      });
    });

    it('refuses bad files and folders, enqueuing nothing and staging nothing', async () => {
      const ok = await uploaded(owner, 'ok.jpg', 'ok');
      const pending = await declare(owner, { name: 'pending.jpg' });
      const foreign = await uploaded(owner, 'foreign.jpg', 'x', otherCorpusId);
      const jobsBefore = await jobCount();
      const stagedBefore = fs.existsSync(stagingRoot(t().config.dataDir))
        ? fs.readdirSync(stagingRoot(t().config.dataDir)).length
        : 0;
      const cases: [unknown, unknown][] = [
        [{}, validation('files', 'This field is required.', 'required')],
        [{ files: [] }, validation('files', 'This list may not be empty.', 'empty')],
        [{ files: 'x' }, validation('files', 'Expected a list of items but got type "str".')],
        [{ files: ['nope'] }, validation('files.0', 'Must be a valid UUID.')],
        [
          { files: [ok.id, UNKNOWN_ID] },
          validation(
            'files',
            `Invalid pk "${UNKNOWN_ID}" - object does not exist.`,
            'does_not_exist',
          ),
        ],
        [
          { files: [pending.id] },
          validation(
            'files',
            'The file "pending.jpg" has not been uploaded completely.',
            'not_uploaded',
          ),
        ],
        [
          { files: [ok.id, foreign.id] },
          validation('files', 'All files must be in the same project.'),
        ],
        [
          { files: [ok.id], folder_id: UNKNOWN_ID },
          validation(
            'folder_id',
            `Invalid pk "${UNKNOWN_ID}" - object does not exist.`,
            'does_not_exist',
          ),
        ],
        [{ files: [ok.id], folder_id: 'nope' }, validation('folder_id', 'Must be a valid UUID.')],
        [
          { files: [ok.id], folder_id: folders.Elsewhere },
          validation('folder_id', 'The folder must be in the same project as the files.'),
        ],
        [
          { files: [ok.id], folder_name: ' ' },
          validation('folder_name', 'This field may not be blank.', 'blank'),
        ],
      ];
      for (const [body, expected] of cases) {
        const response = await owner.post('process/fromfiles/', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json(), JSON.stringify(body)).toEqual(expected);
      }

      // Content gone from the disk: a clear 400, and the staging folder is removed again.
      const lost = await uploaded(owner, 'lost.jpg', 'lost');
      fs.rmSync(dataFilePath(t().config.dataDir, lost.id));
      const response = await owner.post('process/fromfiles/', { files: [ok.id, lost.id] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        validation(
          'files',
          'The content of the file "lost.jpg" is missing: upload it again.',
          'not_uploaded',
        ),
      );

      expect(await jobCount()).toBe(jobsBefore);
      const stagedAfter = fs.existsSync(stagingRoot(t().config.dataDir))
        ? fs.readdirSync(stagingRoot(t().config.dataDir)).length
        : 0;
      expect(stagedAfter).toBe(stagedBefore);
    });

    it('needs a verified contributor; files of unreadable projects do not exist', async () => {
      const file = await uploaded(owner, 'rights.jpg', 'r');
      const body = { files: [file.id] };
      expect(
        (await clientFor(app, actors, 'anonymous').post('process/fromfiles/', body)).statusCode,
      ).toBe(401);
      const unverified = await clientFor(app, actors, 'unverifiedAdmin').post(
        'process/fromfiles/',
        body,
      );
      expect(unverified.statusCode).toBe(403);
      const guest = await clientFor(app, actors, 'guest').post('process/fromfiles/', body);
      expect(guest.statusCode).toBe(403);
      expect(guest.json()).toEqual(denied('You do not have contributor access to this project.'));
      const outsider = await clientFor(app, actors, 'outsider').post('process/fromfiles/', body);
      expect(outsider.json()).toEqual(
        validation('files', `Invalid pk "${file.id}" - object does not exist.`, 'does_not_exist'),
      );
      const admin = await clientFor(app, actors, 'siteAdmin').post('process/fromfiles/', body);
      expect(admin.statusCode).toBe(201);
    });

    it('sweeps leftovers older than a day that nothing will read', async () => {
      const dataDir = t().config.dataDir;
      const old = (target: string) => {
        const then = new Date(Date.now() - 2 * LEFTOVER_AGE_MS);
        fs.utimesSync(target, then, then);
        return target;
      };
      const kept = await uploaded(owner, 'kept.jpg', 'kept');
      const queued = await owner.post('process/fromfiles/', { files: [kept.id] });
      const inUse = old((await jobPayload(queued.json().job.id)).source);
      const orphanDir = path.join(stagingRoot(dataDir), randomUUID());
      fs.mkdirSync(orphanDir, { recursive: true });
      fs.writeFileSync(path.join(orphanDir, 'a.jpg'), 'a');
      old(orphanDir);
      const recentDir = path.join(stagingRoot(dataDir), randomUUID());
      fs.mkdirSync(recentDir);
      old(dataFilePath(dataDir, kept.id));
      const gone = dataFilePath(dataDir, randomUUID());
      fs.writeFileSync(gone, 'from a deleted project');
      old(gone);
      const part = path.join(path.dirname(gone), `${randomUUID()}.${randomUUID()}.part`);
      fs.writeFileSync(part, 'half');
      old(part);
      const recentOrphan = dataFilePath(dataDir, randomUUID());
      fs.writeFileSync(recentOrphan, 'just now');

      const removed = await sweepLeftovers(app.db, dataDir);
      expect(removed.sort()).toEqual([orphanDir, gone, part].sort());
      for (const target of [inUse, recentDir, dataFilePath(dataDir, kept.id), recentOrphan]) {
        expect(fs.existsSync(target), target).toBe(true);
      }
    });

    it('runs the import: the report comes with the job, the staging folder goes', async () => {
      const image = await sharp({
        create: { width: 120, height: 80, channels: 3, background: '#f4ecd8' },
      })
        .png()
        .toBuffer();
      const file = await uploaded(owner, 'folio 1.png', image);
      const response = await owner.post('process/fromfiles/', {
        files: [file.id],
        folder_name: 'Uploaded scans',
      });
      expect(response.statusCode).toBe(201);
      const jobId = response.json().job.id as string;
      const taskId = response.json().tasks[0].id as string;
      const { source } = await jobPayload(jobId);
      expect(fs.existsSync(path.join(source, 'folio 1.png'))).toBe(true);

      await app.jobs.drain();
      expect(fs.existsSync(source)).toBe(false);
      expect(fs.existsSync(dataFilePath(t().config.dataDir, file.id))).toBe(true);
      const job = (await owner.get(`jobs/${jobId}/`)).json();
      expect(job, job.error).toMatchObject({ status: 'processed', progress: 1, error: null });
      const report = job.result as ImportReport;
      expect(report).toMatchObject({ folders: 1, pages: 1, images: 1, problems: [] });
      expect(report.folder_id).toMatch(UUID);
      const folder = (await owner.get(`element/${report.element_id}/`)).json();
      expect(folder).toMatchObject({ name: 'Uploaded scans', corpus: { id: corpusId } });

      // The process' task followed the job, and its log says what the import did.
      const task = (await owner.get(`task/${taskId}/`)).json();
      expect(task).toMatchObject({ state: 'completed', attempts: 1 });
      expect(task.finished).not.toBeNull();
      expect(task.logs).toBe('1 folder, 1 page, 0 regions, 0 lines, 0 transcriptions, 1 image\n');
      const process = await app.db
        .selectFrom('processes')
        .select(['state', 'finished'])
        .where('id', '=', response.json().id)
        .executeTakeFirstOrThrow();
      expect(process.state).toBe('completed');
      expect(process.finished).not.toBeNull();
    });

    it('fails the import task, with the error in its log, when the import fails', async () => {
      const file = await uploaded(owner, 'broken.png', 'not an image');
      const response = await owner.post('process/fromfiles/', { files: [file.id] });
      const taskId = response.json().tasks[0].id as string;
      const { source } = await jobPayload(response.json().job.id);
      // The staging folder vanishes before the job runs: the import cannot read it.
      fs.rmSync(source, { recursive: true, force: true });
      await app.jobs.drain();
      const job = (await owner.get(`jobs/${response.json().job.id}/`)).json();
      expect(job.status).toBe('error');
      const task = (await owner.get(`task/${taskId}/`)).json();
      expect(task.state).toBe('failed');
      expect(task.logs).toBe(`${job.error}\n`);
      const process = (
        await app.db
          .selectFrom('processes')
          .select('state')
          .where('id', '=', response.json().id)
          .executeTakeFirstOrThrow()
      ).state;
      expect(process).toBe('failed');
    });

    it('ends the import task when its job is cancelled before it runs, or dies', async () => {
      const file = await uploaded(owner, 'cancelled.png', 'whatever');
      const cancelled = await owner.post('process/fromfiles/', { files: [file.id] });
      const dying = await owner.post('process/fromfiles/', { files: [file.id] });
      expect((await owner.delete(`jobs/${cancelled.json().job.id}/`)).statusCode).toBe(204);
      await app.db
        .updateTable('jobs')
        .set({ status: 'error', error: 'Interrupted by a server restart' })
        .where('id', '=', dying.json().job.id)
        .execute();
      const settled = await settleOrphanImportTasks(app.db, app.dialect);
      expect(settled.sort()).toEqual(
        [cancelled.json().tasks[0].id, dying.json().tasks[0].id].sort(),
      );
      const first = (await owner.get(`task/${cancelled.json().tasks[0].id}/`)).json();
      expect(first).toMatchObject({
        state: 'stopped',
        logs: 'The import was cancelled before it ran.\n',
      });
      const second = (await owner.get(`task/${dying.json().tasks[0].id}/`)).json();
      expect(second).toMatchObject({
        state: 'error',
        logs: 'Interrupted by a server restart\n',
      });
      // Settled once: another pass finds nothing left.
      expect(await settleOrphanImportTasks(app.db, app.dialect)).toEqual([]);
    });

    it('stops the import when its task is stopped before it runs', async () => {
      const file = await uploaded(owner, 'later.png', 'whatever');
      const response = await owner.post('process/fromfiles/', { files: [file.id] });
      const taskId = response.json().tasks[0].id as string;
      const stop = await owner.patch(`task/${taskId}/`, { state: 'stopping' });
      expect(stop.json().state).toBe('stopped');
      await app.jobs.drain();
      const task = (await owner.get(`task/${taskId}/`)).json();
      expect(task.state).toBe('stopped');
      const report = (await owner.get(`jobs/${response.json().job.id}/`)).json().result;
      expect(report).toMatchObject({ stopped: true, pages: 0, folders: 0 });
      expect(fs.existsSync(stagingRoot(t().config.dataDir))).toBe(true);
      const { source } = await jobPayload(response.json().job.id);
      expect(fs.existsSync(source)).toBe(false);
    });
  });
});
