/**
 * Project exports through the API (spec 001 §3 Export, api part 2 §1.1): starting one and its
 * refusals, the job that builds it to the end, the list, the download and the mails.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { beforeAll, expect, it } from 'vitest';
import { Client, describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, makeCorpus, type Actors, type Role } from '../actors';
import { insertElements } from '../elementsFixtures';
import {
  INVALID_PAGE,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  validation,
} from '../expectedErrors';
import { drainWatchingProgress } from '../jobProgress';
import { claim, makeProcess, registerAgent } from '../tasks/fixtures';
import { exportFilePath } from '../../../server/services/exports/exports';
import { ageExport, exportRow, hoursAgo, insertExport } from './exportsFixtures';

const clientError = (detail: string) => ({
  type: 'client_error',
  errors: [{ code: 'invalid', detail, attr: null }],
});
const NOT_CONTRIBUTOR = denied('Contributor access is required to start a project export.');
const ALREADY_RUNNING = clientError('An export is already running for this project.');
const TOO_RECENT = clientError(
  'An export has already been made for this project in the last 6 hours.',
);
const NOT_DONE = clientError('This export is not done.');

interface ExportBody {
  id: string;
  created: string;
  updated: string;
  corpus_id: string;
  user: { id: string; email: string; display_name: string };
  state: string;
  source: string;
}

describeEachDialect('Project exports', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  /** A fresh project the cast joins: the rules allow one export at a time per project. */
  const project = (name: string, isPublic = false) =>
    makeCorpus(t().app, actors, { name, ...(isPublic ? { public: true } : {}) });
  const start = (corpusId: string, role: Role = 'contributor', body: unknown = {}) =>
    as(role).post(`corpus/${corpusId}/export/`, body);
  const download = (id: string, role: Role = 'guest') => as(role).get(`export/${id}/`);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app, {
      private: 'Private: Book/1',
      public: 'Public',
    }));
  });

  it('builds an export from start to download, reports progress and mails the starter', async () => {
    const app = t().app;
    const ids = await insertElements(app, privateId, [
      { name: 'Volume', type: 'folder' },
      { name: 'Page 1', type: 'page', parent: 'Volume' },
      { name: 'Page 2', type: 'page', parent: 'Volume' },
    ]);
    const now = new Date().toISOString();
    await app.db
      .insertInto('transcriptions')
      .values(
        ['Page 1', 'Page 2'].map((name) => ({
          id: randomUUID(),
          element_id: ids[name]!,
          text: `Text of ${name}`,
          orientation: 'horizontal-lr' as const,
          confidence: null,
          worker_run_id: null,
          creator_id: null,
          created: now,
          updated: now,
        })),
      )
      .execute();

    const started = await start(privateId, 'contributor', { source: 'default' });
    expect(started.statusCode).toBe(201);
    const body = started.json<ExportBody>();
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      created: expect.any(String),
      updated: expect.any(String),
      corpus_id: privateId,
      user: {
        id: actors.contributor.id,
        email: actors.contributor.email,
        display_name: 'Contributor',
      },
      state: 'created',
      source: 'default',
    });
    const row = (await exportRow(app, body.id))!;
    const job = await app.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', row.job_id!)
      .executeTakeFirstOrThrow();
    expect(job.kind).toBe('export.sqlite');
    expect(job.user_id).toBe(actors.contributor.id);
    expect(job.description).toBe('Export of project Private: Book/1');
    // The jobs modal shows it to its starter.
    const jobs = await as('contributor').get('jobs/');
    expect(jobs.json().map((j: { id: string }) => j.id)).toContain(job.id);

    const seen = await drainWatchingProgress(app, job.id);
    expect(seen.some((value) => value > 0 && value < 1)).toBe(true);
    const ended = await app.db
      .selectFrom('jobs')
      .select(['status', 'progress'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(ended).toEqual({ status: 'processed', progress: 1 });

    const listed = await as('guest').get(`corpus/${privateId}/export/`);
    expect(listed.statusCode).toBe(200);
    const done = listed.json<{ results: ExportBody[] }>().results[0]!;
    expect(done).toMatchObject({ id: body.id, state: 'done', created: body.created });
    expect(done.updated >= body.updated).toBe(true);

    const file = await download(body.id, 'guest');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/x-sqlite3');
    const date = body.created.slice(0, 10);
    // Characters a file name cannot hold are replaced in the ASCII name.
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Private_ Book_1-${date}.sqlite"; ` +
        `filename*=UTF-8''${encodeURIComponent(`Private: Book/1-${date}.sqlite`)}`,
    );
    expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);
    expect((await exportRow(app, body.id))!.size).toEqual(
      app.dialect === 'postgres' ? String(file.rawPayload.length) : file.rawPayload.length,
    );

    const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folia-export-')), 'e.sqlite');
    fs.writeFileSync(local, file.rawPayload);
    const sqlite = new BetterSqlite3(local, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT version FROM export_version').all()).toEqual([{ version: 11 }]);
      const names = sqlite.prepare('SELECT name, type FROM element ORDER BY name').all();
      expect(names).toEqual([
        { name: 'Page 1', type: 'page' },
        { name: 'Page 2', type: 'page' },
        { name: 'Volume', type: 'folder' },
      ]);
      const texts = sqlite
        .prepare(
          'SELECT e.name, t.text FROM transcription t JOIN element e ON e.id = t.element_id ' +
            'ORDER BY e.name',
        )
        .all();
      expect(texts).toEqual([
        { name: 'Page 1', text: 'Text of Page 1' },
        { name: 'Page 2', text: 'Text of Page 2' },
      ]);
      expect(sqlite.prepare('SELECT count(*) AS n FROM element_path').get()).toEqual({ n: 2 });
    } finally {
      sqlite.close();
    }

    const mail = t().mails.find((m) => m.text.includes(body.id))!;
    expect(mail.to).toBe(actors.contributor.email);
    expect(mail.subject).toBe('Your export of the project Private: Book/1 is ready');
    expect(mail.text).toContain(`http://localhost:80/api/v1/export/${body.id}/`);
  });

  it('refuses a start without contributor access, word for word', async () => {
    expect(await start(privateId, 'guest').then((r) => [r.statusCode, r.json()])).toEqual([
      403,
      NOT_CONTRIBUTOR,
    ]);
    expect(await start(publicId, 'outsider').then((r) => [r.statusCode, r.json()])).toEqual([
      403,
      NOT_CONTRIBUTOR,
    ]);
    expect(await start(privateId, 'outsider').then((r) => [r.statusCode, r.json()])).toEqual([
      404,
      NOT_FOUND,
    ]);
    expect(await start(publicId, 'anonymous').then((r) => [r.statusCode, r.json()])).toEqual([
      401,
      NOT_AUTHENTICATED,
    ]);
    expect((await start(UNKNOWN_ID)).statusCode).toBe(404);
    const notUuid = await start('not-a-uuid');
    expect([notUuid.statusCode, notUuid.json()]).toEqual([404, NOT_FOUND]);
    const rows = await t()
      .app.db.selectFrom('corpus_exports')
      .select('id')
      .where('corpus_id', '=', publicId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers 400 to a bad body: malformed JSON, a source of the wrong type or unknown', async () => {
    const corpusId = await project('Bad bodies');
    const malformed = await start(corpusId, 'contributor', '{"source": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].code).toBe('parse_error');
    const wrongType = await start(corpusId, 'contributor', { source: 5 });
    expect([wrongType.statusCode, wrongType.json()]).toEqual([
      400,
      validation('source', 'Not a valid string.'),
    ]);
    const unknown = await start(corpusId, 'contributor', { source: 'elsewhere' });
    expect([unknown.statusCode, unknown.json()]).toEqual([
      400,
      validation('source', '"elsewhere" is not a valid choice.', 'invalid_choice'),
    ]);
    // The source may be left out: it is the default one.
    const bare = await as('contributor').post(`corpus/${corpusId}/export/`);
    expect(bare.statusCode).toBe(201);
    expect(bare.json().source).toBe('default');
  });

  it('allows one export at a time, none within 6 hours of a done one, another after', async () => {
    const app = t().app;
    const corpusId = await project('One at a time');
    const first = await start(corpusId, 'owner');
    expect(first.statusCode).toBe(201);
    const again = await start(corpusId, 'contributor');
    expect([again.statusCode, again.json()]).toEqual([400, ALREADY_RUNNING]);
    await app.db
      .updateTable('corpus_exports')
      .set({ state: 'running' })
      .where('id', '=', first.json().id)
      .execute();
    expect((await start(corpusId, 'contributor')).json()).toEqual(ALREADY_RUNNING);
    await app.db
      .updateTable('corpus_exports')
      .set({ state: 'created' })
      .where('id', '=', first.json().id)
      .execute();

    await app.jobs.drain();
    expect((await exportRow(app, first.json().id))!.state).toBe('done');
    const recent = await start(corpusId, 'contributor');
    expect([recent.statusCode, recent.json()]).toEqual([400, TOO_RECENT]);
    await ageExport(app, first.json().id, 5);
    expect((await start(corpusId, 'contributor')).json()).toEqual(TOO_RECENT);

    await ageExport(app, first.json().id, 7);
    const later = await start(corpusId, 'contributor');
    expect(later.statusCode).toBe(201);
    expect(later.json().state).toBe('created');
    await app.jobs.drain();
  });

  it('starts one export of two asked at the same moment', async () => {
    const corpusId = await project('Twice at once');
    const answers = await Promise.all([start(corpusId, 'owner'), start(corpusId, 'contributor')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    expect(answers.find((r) => r.statusCode === 400)!.json()).toEqual(ALREADY_RUNNING);
    const rows = await t()
      .app.db.selectFrom('corpus_exports')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .execute();
    expect(rows).toHaveLength(1);
    await t().app.jobs.drain();
  });

  it('marks an export failed when it cannot be built, mails it, and lets another start', async () => {
    const app = t().app;
    const corpusId = await project('Failing');
    const started = await start(corpusId, 'contributor');
    const id = started.json().id as string;
    // A folder where the file must go: the finished export cannot be renamed into place.
    fs.mkdirSync(exportFilePath(app.config.dataDir, id), { recursive: true });
    await app.jobs.drain();
    fs.rmSync(exportFilePath(app.config.dataDir, id), { recursive: true });

    const row = (await exportRow(app, id))!;
    expect(row.state).toBe('failed');
    expect(row.error).toBeTruthy();
    const job = await app.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', row.job_id!)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('error');
    const listed = await as('guest').get(`corpus/${corpusId}/export/`);
    expect(listed.json().results[0]).toMatchObject({ id, state: 'failed' });
    const mail = t().mails.find((m) => m.subject === 'Your export of the project Failing failed')!;
    expect(mail.to).toBe(actors.contributor.email);
    expect(mail.text).toContain(row.error!);
    expect((await download(id)).json()).toEqual(NOT_DONE);

    const next = await start(corpusId, 'contributor');
    expect(next.statusCode).toBe(201);
    await app.jobs.drain();
    expect((await exportRow(app, next.json().id))!.state).toBe('done');
  });

  it('lists 10 exports a page, newest first, to guests and on public projects', async () => {
    const app = t().app;
    const corpusId = await project('Many exports', true);
    const made: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      made.push(
        await insertExport(app, corpusId, actors.owner.id, {
          state: i % 3 === 0 ? 'failed' : 'done',
          created: hoursAgo(100 - i),
        }),
      );
    }
    const newestFirst = [...made].reverse();
    const first = await as('outsider').get(`corpus/${corpusId}/export/`);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.count).toBe(12);
    expect(page1.number).toBe(1);
    expect(page1.previous).toBeNull();
    expect(page1.next).toMatch(/\/api\/v1\/corpus\/[^/]+\/export\/\?page=2$/);
    expect(page1.results.map((e: ExportBody) => e.id)).toEqual(newestFirst.slice(0, 10));
    expect(page1.results[0].user).toEqual({
      id: actors.owner.id,
      email: actors.owner.email,
      display_name: 'Owner',
    });
    const page2 = (await as('anonymous').get(`corpus/${corpusId}/export/?page=2`)).json();
    expect(page2.results.map((e: ExportBody) => e.id)).toEqual(newestFirst.slice(10));
    expect(page2.next).toBeNull();
    expect((await as('anonymous').get(`corpus/${corpusId}/export/?page=3`)).json()).toEqual(
      INVALID_PAGE,
    );

    expect((await as('guest').get(`corpus/${privateId}/export/`)).statusCode).toBe(200);
    const hidden = await as('outsider').get(`corpus/${privateId}/export/`);
    expect([hidden.statusCode, hidden.json()]).toEqual([404, NOT_FOUND]);
    expect((await as('anonymous').get(`corpus/${privateId}/export/`)).statusCode).toBe(404);
    expect((await as('guest').get('corpus/nonsense/export/')).statusCode).toBe(404);
  });

  it('downloads for readers only: guests, public projects, Token and task tokens', async () => {
    const app = t().app;
    const privateExport = await insertExport(app, privateId, actors.owner.id, {
      created: hoursAgo(48),
    });
    const publicExport = await insertExport(app, publicId, actors.owner.id, {
      created: hoursAgo(48),
    });

    for (const role of ['guest', 'contributor', 'owner', 'siteAdmin'] as const) {
      const answer = await download(privateExport, role);
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe('not really SQLite');
    }
    for (const role of ['outsider', 'anonymous'] as const) {
      const answer = await download(privateExport, role);
      expect([answer.statusCode, answer.json()]).toEqual([404, NOT_FOUND]);
    }
    expect((await download(publicExport, 'anonymous')).statusCode).toBe(200);
    expect((await download(publicExport, 'outsider')).statusCode).toBe(200);
    expect((await download(UNKNOWN_ID)).json()).toEqual(NOT_FOUND);
    const notUuid = await download('12345');
    expect([notUuid.statusCode, notUuid.json()]).toEqual([404, NOT_FOUND]);

    const running = await insertExport(app, privateId, actors.owner.id, {
      state: 'running',
      created: hoursAgo(1),
      jobId: null,
    });
    // Its job is gone, so the export is settled as failed before the call: still not done.
    const notDone = await download(running);
    expect([notDone.statusCode, notDone.json()]).toEqual([400, NOT_DONE]);

    // A task of a process on the project downloads with its own token; not another project's.
    const made = await makeProcess(app, privateId, actors.owner.id, [{ slug: 'reader' }]);
    const agent = await registerAgent(app, made.farm, 'export-host', 1);
    const [task] = await claim(app, agent, 1);
    const ponos = { authorization: `Ponos ${task!.token}` };
    const byTask = await new Client(app).get(`export/${privateExport}/`, ponos);
    expect(byTask.statusCode).toBe(200);
    expect(byTask.body).toBe('not really SQLite');
    const elsewhere = await new Client(app).get(`export/${publicExport}/`, ponos);
    expect([elsewhere.statusCode, elsewhere.json()]).toEqual([404, NOT_FOUND]);
  });

  it('names its one source', async () => {
    const sources = await as('guest').get('export-sources/');
    expect(sources.statusCode).toBe(200);
    expect(sources.json()).toEqual([{ name: 'default', last_update: expect.any(String) }]);
    expect(Number.isNaN(Date.parse(sources.json()[0].last_update))).toBe(false);
    expect((await as('anonymous').get('export-sources/')).json()).toEqual(NOT_AUTHENTICATED);
  });
});
