/**
 * POST /corpus/{id}/index/ (CorpusIndex): a project's admins rebuild its search documents in a
 * job, which writes exactly what the follower builds; the demo project is indexed at once.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, makeTestApp } from '../harness';
import { clientFor, makeActorsAndProjects, makeCorpus, type Actors, type Role } from '../actors';
import { insertElements, typeIds } from '../elementsFixtures';
import { NOT_ADMIN, NOT_FOUND, UNKNOWN_ID, validation } from '../expectedErrors';
import { flushSearchIndex, pendingCount } from '../../../server/services/search/pending';
import { REINDEX_JOB, REINDEX_MESSAGES } from '../../../server/services/search/reindex';
import { seedDemo } from '../../../server/demo/index';
import { drainWatchingProgress } from '../jobProgress';

describeEachDialect('reindexing a project', ({ t, dialect }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let closedId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const handle = () => ({ db: t().app.db, dialect });

  /** Every document of a project with its words, as the engine holds them. */
  async function snapshot(corpusId: string) {
    const { db } = t().app;
    const rows =
      dialect === 'sqlite'
        ? (
            await sql<Record<string, unknown>>`
            select d.source, d.item_id, d.element_id, d.type_id, d.worker_run_id, d.ml_class_id,
              d.metadata_name, d.entity_type_id, d.confidence, f.body
            from search_documents d left join (select rowid, body from search_fts) f
              on f.rowid = d.id
            where d.corpus_id = ${corpusId}`.execute(db)
          ).rows
        : (
            await sql<Record<string, unknown>>`
            select source, item_id, element_id, type_id, worker_run_id, ml_class_id,
              metadata_name, entity_type_id, confidence, tsv::text as body
            from search_documents where corpus_id = ${corpusId}`.execute(db)
          ).rows;
    return rows
      .map((row) => JSON.stringify(row))
      .sort()
      .map((text) => JSON.parse(text) as Record<string, unknown>);
  }

  async function countDocuments(corpusId: string): Promise<number> {
    const row = await t()
      .app.db.selectFrom('search_documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('corpus_id', '=', corpusId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  beforeAll(async () => {
    const { app } = t();
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app));
    for (const id of [privateId, publicId]) {
      await app.db.updateTable('corpora').set({ indexable: 1 }).where('id', '=', id).execute();
    }
    closedId = await makeCorpus(app, actors, { name: 'Not indexable' });
    const ids = await insertElements(app, privateId, [
      { name: 'Register A', type: 'folder' },
      ...Array.from({ length: 30 }, (_, i) => ({
        name: `Folio ${i + 1}`,
        type: 'page',
        parent: 'Register A',
      })),
    ]);
    const now = new Date().toISOString();
    await app.db
      .insertInto('transcriptions')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          id: randomUUID(),
          element_id: ids[`Folio ${i + 1}`]!,
          text: `Item ${i + 1}: ſolde payé à Jehan`,
          orientation: 'horizontal-lr' as const,
          confidence: 0.5,
          worker_run_id: null,
          creator_id: null,
          created: now,
          updated: now,
        })),
      )
      .execute();
    await insertElements(app, publicId, [{ name: 'Open page', type: 'page' }]);
    await flushSearchIndex(handle());
  });

  it('refuses strangers, non-admins, unknown projects and projects that are not indexable', async () => {
    expect((await as('anonymous').post(`corpus/${publicId}/index/`)).statusCode).toBe(401);
    for (const role of ['contributor', 'guest'] as const) {
      const response = await as(role).post(`corpus/${privateId}/index/`);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(NOT_ADMIN);
    }
    // Readable but not administered: 403; unreadable or unknown: 404.
    expect((await as('outsider').post(`corpus/${publicId}/index/`)).statusCode).toBe(403);
    for (const id of [privateId, UNKNOWN_ID, 'not-a-uuid']) {
      const response = await as('outsider').post(`corpus/${id}/index/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
    const closed = await as('owner').post(`corpus/${closedId}/index/`);
    expect(closed.statusCode).toBe(400);
    expect(closed.json()).toEqual(validation('corpus', REINDEX_MESSAGES.notIndexable));
    const jobs = await t()
      .app.db.selectFrom('jobs')
      .select('id')
      .where('kind', '=', REINDEX_JOB)
      .execute();
    expect(jobs).toEqual([]);
  });

  it('rebuilds exactly what the follower built, with progress, as a job of its owner', async () => {
    const built = await snapshot(privateId);
    expect(built.length).toBe(61);
    // Break the index: a document lost, one of a deleted element left behind, one changed.
    const { db } = t().app;
    const lost = await db
      .selectFrom('search_documents')
      .select('id')
      .where('corpus_id', '=', privateId)
      .where('source', '=', 'transcription')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    if (dialect === 'sqlite') {
      await sql`delete from search_fts where rowid = ${lost.id}`.execute(db);
    }
    await db.deleteFrom('search_documents').where('id', '=', lost.id).execute();
    await db
      .updateTable('search_documents')
      .set({ confidence: 0.01 })
      .where('corpus_id', '=', privateId)
      .where('source', '=', 'transcription')
      .execute();
    const ghost = randomUUID();
    await db
      .insertInto('search_documents')
      .values({
        corpus_id: privateId,
        source: 'element',
        item_id: ghost,
        element_id: ghost,
        type_id: (await typeIds(t().app, privateId)).page!,
        worker_run_id: null,
        ml_class_id: null,
        metadata_name: null,
        entity_type_id: null,
        confidence: null,
        ...(dialect === 'postgres' ? { tsv: sql<string>`${"'ghost':1"}::tsvector` } : {}),
      })
      .execute();
    expect(await snapshot(privateId)).not.toEqual(built);

    const response = await as('owner').post(`corpus/${privateId}/index/`);
    expect(response.statusCode, response.body).toBe(202);
    const job = response.json();
    expect(job).toMatchObject({
      kind: REINDEX_JOB,
      description: 'Reindexing project Private',
      status: 'queued',
      corpus_id: privateId,
    });
    expect(await pendingCount(handle())).toBe(0);
    await t().app.jobs.drain();

    const ended = await as('owner').get(`jobs/${job.id}/`);
    expect(ended.json()).toMatchObject({
      status: 'processed',
      progress: 1,
      result: { elements: 31, documents: 61, removed: 1 },
    });
    expect(await snapshot(privateId)).toEqual(built);
    // Other projects are left alone.
    expect(await countDocuments(publicId)).toBe(1);
  });

  it('reports progress from 0 to 1, a page of elements at a time', async () => {
    const { app } = t();
    const big = await makeCorpus(app, actors, { name: 'Big register' });
    await app.db.updateTable('corpora').set({ indexable: 1 }).where('id', '=', big).execute();
    const lineType = (await typeIds(app, big)).text_line!;
    const now = new Date().toISOString();
    const rows = Array.from({ length: 1600 }, (_, i) => ({
      id: randomUUID(),
      corpus_id: big,
      type_id: lineType,
      name: `big line ${i}`,
      rotation_angle: 0,
      mirrored: 0 as const,
      created: now,
      updated: now,
    }));
    for (let i = 0; i < rows.length; i += 400) {
      await app.db
        .insertInto('elements')
        .values(rows.slice(i, i + 400))
        .execute();
    }
    const response = await as('owner').post(`corpus/${big}/index/`);
    expect(response.statusCode, response.body).toBe(202);
    const jobId = response.json().id as string;
    const seen = await drainWatchingProgress(app, jobId);
    const job = (await as('owner').get(`jobs/${jobId}/`)).json();
    expect(job).toMatchObject({
      status: 'processed',
      progress: 1,
      result: { elements: 1600, documents: 1600, removed: 0 },
    });
    expect(seen.filter((value) => value > 0 && value < 1).length).toBeGreaterThan(0);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(await countDocuments(big)).toBe(1600);
  });

  it('is gone with the search feature off', async () => {
    const off = await makeTestApp(dialect, { FOLIA_FEATURES: 'selection' });
    try {
      const { actors: offActors, publicId: offPublic } = await makeActorsAndProjects(off.app);
      await off.app.db
        .updateTable('corpora')
        .set({ indexable: 1 })
        .where('id', '=', offPublic)
        .execute();
      const response = await clientFor(off.app, offActors, 'owner').post(
        `corpus/${offPublic}/index/`,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    } finally {
      await off.close();
    }
  });

  it('indexes the demo project as soon as it is seeded', async () => {
    const demoApp = await makeTestApp(dialect);
    try {
      const demo = await seedDemo(demoApp.app);
      expect(demo).not.toBeNull();
      const corpus = await demoApp.app.db
        .selectFrom('corpora')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(corpus.indexable).toBe(1);
      const demoHandle = { db: demoApp.app.db, dialect };
      expect(await pendingCount(demoHandle)).toBe(0);
      const counts = await demoApp.app.db
        .selectFrom('search_documents')
        .select(['source', (eb) => eb.fn.countAll().as('n')])
        .where('corpus_id', '=', corpus.id)
        .groupBy('source')
        .execute();
      const bySource = Object.fromEntries(counts.map((row) => [row.source, Number(row.n)]));
      const elements = await demoApp.app.db
        .selectFrom('elements')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const transcriptions = await demoApp.app.db
        .selectFrom('transcriptions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(bySource.element).toBe(Number(elements.n));
      expect(bySource.transcription).toBe(Number(transcriptions.n));
      expect(bySource.classification).toBeGreaterThan(0);
    } finally {
      await demoApp.close();
    }
  });
});
