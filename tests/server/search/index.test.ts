/**
 * The search index follows every write: through the API, an import, a bulk job and plain SQL,
 * the triggers mark the elements pending and a flush rewrites their documents. Documents are
 * read back from search_documents and found through the engine itself (SQLite: search_fts
 * MATCH; PostgreSQL: tsv @@ tsquery).
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, makeTestApp } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { insertElements, makeImage, typeIds } from '../elementsFixtures';
import { makeWorkerRun } from '../workerRunFixtures';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../sharedData';
import { PG_URL } from '../throwawayApp';
import { runImport } from '../../../server/imports/execute';
import {
  flushPending,
  flushSearchIndex,
  pendingCount,
} from '../../../server/services/search/pending';
import {
  entityText,
  tsvectorLiteral,
  type SearchHandle,
} from '../../../server/services/search/indexer';
import { createSearchFollower } from '../../../server/services/search/follower';
import * as migration from '../../../server/db/migrations/0019_search_index';

interface Doc {
  source: string;
  item_id: string;
  element_id: string;
  type_id: string;
  worker_run_id: string | null;
  ml_class_id: string | null;
  metadata_name: string | null;
  entity_type_id: string | null;
  confidence: number | null;
}

const withShared = sharedDataAvailable();

it('builds tsvector literals with positions, escaped, and entity texts by code point', () => {
  expect(tsvectorLiteral(['a', 'b', 'a', "o'k", 'x\\y'])).toBe("'a':1,3 'b':2 'o''k':4 'x\\\\y':5");
  expect(tsvectorLiteral([])).toBe('');
  expect(entityText('𝔄bc Paris', 4, 5)).toBe('Paris');
  expect(entityText('𝔄bc Paris', 0, 3)).toBe('𝔄bc');
});

describeEachDialect('search index follows writes', ({ t, dialect }) => {
  let actors: Actors;
  let corpusId: string;
  let types: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const handle = (): SearchHandle => ({ db: t().app.db, dialect });
  const flush = () => flushSearchIndex(handle());

  /** The documents of an element (or of the project), sorted. */
  async function docs(where: { element?: string; corpus?: string }): Promise<Doc[]> {
    let query = t()
      .app.db.selectFrom('search_documents')
      .select([
        'source',
        'item_id',
        'element_id',
        'type_id',
        'worker_run_id',
        'ml_class_id',
        'metadata_name',
        'entity_type_id',
        'confidence',
      ]);
    if (where.element) query = query.where('element_id', '=', where.element);
    if (where.corpus) query = query.where('corpus_id', '=', where.corpus);
    const rows = await query.orderBy('source').orderBy('item_id').execute();
    return rows.map((row) => ({
      ...row,
      confidence: row.confidence === null ? null : Number(row.confidence),
    }));
  }

  /** "source:item_id" of the documents holding this folded word, through the engine. */
  async function found(word: string): Promise<string[]> {
    const { db } = t().app;
    const rows =
      dialect === 'sqlite'
        ? (
            await sql<{ source: string; item_id: string }>`
            select d.source, d.item_id from search_fts f join search_documents d on d.id = f.rowid
            where search_fts match ${`"${word}"`}`.execute(db)
          ).rows
        : (
            await sql<{ source: string; item_id: string }>`
            select source, item_id from search_documents where tsv @@ ${`'${word}'`}::tsquery`.execute(
              db,
            )
          ).rows;
    return rows.map((row) => `${row.source}:${row.item_id}`).sort();
  }

  /** Phrase search: the words consecutive in one document. */
  async function foundPhrase(words: string[]): Promise<string[]> {
    const { db } = t().app;
    const rows =
      dialect === 'sqlite'
        ? (
            await sql<{ source: string; item_id: string }>`
            select d.source, d.item_id from search_fts f join search_documents d on d.id = f.rowid
            where search_fts match ${`"${words.join(' ')}"`}`.execute(db)
          ).rows
        : (
            await sql<{ source: string; item_id: string }>`
            select source, item_id from search_documents
            where tsv @@ ${words.map((word) => `'${word}'`).join(' <-> ')}::tsquery`.execute(db)
          ).rows;
    return rows.map((row) => `${row.source}:${row.item_id}`).sort();
  }

  async function createElement(name: string, type = 'page', extra: Record<string, unknown> = {}) {
    const response = await as('contributor').post('elements/create/', {
      corpus: corpusId,
      type,
      name,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  }

  beforeAll(async () => {
    const { app } = t();
    ({ actors, privateId: corpusId } = await makeActorsAndProjects(app));
    types = await typeIds(app, corpusId);
    await flush();
  });

  it('follows an element created, renamed, retyped and deleted through the API', async () => {
    const id = await createElement('Folio Menſchheit');
    expect(await docs({ element: id })).toEqual([]);
    expect(await pendingCount(handle())).toBeGreaterThan(0);
    expect(await flush()).toBe(0);
    expect(await docs({ element: id })).toEqual([
      {
        source: 'element',
        item_id: id,
        element_id: id,
        type_id: types.page,
        worker_run_id: null,
        ml_class_id: null,
        metadata_name: null,
        entity_type_id: null,
        confidence: null,
      },
    ]);
    // Long s folded: the document holds "menschheit".
    expect(await found('menschheit')).toEqual([`element:${id}`]);
    expect(await found('folio')).toContain(`element:${id}`);

    const renamed = await as('contributor').patch(`element/${id}/`, {
      name: 'Blatt Zwölf',
      type: 'folder',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await flush();
    expect(await found('menschheit')).toEqual([]);
    expect(await found('zwolf')).toEqual([`element:${id}`]);
    expect((await docs({ element: id }))[0]!.type_id).toBe(types.folder);

    const deleted = await as('owner').delete(`element/${id}/`);
    expect([202, 204]).toContain(deleted.statusCode);
    await t().app.jobs.drain();
    await flush();
    expect(await docs({ element: id })).toEqual([]);
    expect(await found('zwolf')).toEqual([]);
  });

  it('marks nothing when only the dates of an element change', async () => {
    const id = await createElement('Quiet page');
    await flush();
    await t()
      .app.db.updateTable('elements')
      .set({ updated: new Date().toISOString(), children_updated: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    expect(await pendingCount(handle())).toBe(0);
    // A name set to the same value changes nothing either.
    await t()
      .app.db.updateTable('elements')
      .set({ name: 'Quiet page' })
      .where('id', '=', id)
      .execute();
    expect(await pendingCount(handle())).toBe(0);
  });

  it('follows transcriptions created, edited and deleted, and entities in them', async () => {
    const page = await createElement('Letter');
    const created = await as('contributor').post(`element/${page}/transcription/`, {
      text: 'Cher Monſieur, à Paris',
      confidence: 0.75,
    });
    expect(created.statusCode, created.body).toBe(201);
    const transcription = created.json().id as string;
    await flush();
    expect(await found('monsieur')).toEqual([`transcription:${transcription}`]);
    expect(await found('a')).toContain(`transcription:${transcription}`);
    expect(await foundPhrase(['cher', 'monsieur'])).toEqual([`transcription:${transcription}`]);
    expect(await foundPhrase(['monsieur', 'cher'])).toEqual([]);
    expect((await docs({ element: page })).find((doc) => doc.source === 'transcription')).toEqual({
      source: 'transcription',
      item_id: transcription,
      element_id: page,
      type_id: types.page,
      worker_run_id: null,
      ml_class_id: null,
      metadata_name: null,
      entity_type_id: null,
      confidence: 0.75,
    });

    const edited = await as('contributor').patch(`transcription/${transcription}/`, {
      text: 'Chère Madame, à Paris',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await flush();
    expect(await found('monsieur')).toEqual([]);
    expect(await found('madame')).toEqual([`transcription:${transcription}`]);

    const place = await as('owner').post('entity/types/', { corpus: corpusId, name: 'place' });
    expect(place.statusCode, place.body).toBe(201);
    const entities = await as('contributor').post(`transcription/${transcription}/entities/bulk/`, {
      transcription_entities: [
        { offset: 16, length: 5, type_id: place.json().id, confidence: 0.5 },
      ],
    });
    expect(entities.statusCode, entities.body).toBe(201);
    await flush();
    const entityDocs = (await docs({ element: page })).filter(
      (doc) => doc.source === 'transcription_entity',
    );
    expect(entityDocs).toHaveLength(1);
    expect(entityDocs[0]).toMatchObject({ entity_type_id: place.json().id, confidence: 0.5 });
    expect(await found('paris')).toEqual(
      [`transcription:${transcription}`, `transcription_entity:${entityDocs[0]!.item_id}`].sort(),
    );
    expect(await found('madame')).toEqual([`transcription:${transcription}`]);

    const deleted = await as('contributor').delete(`transcription/${transcription}/`);
    expect(deleted.statusCode).toBe(204);
    await flush();
    expect(await found('madame')).toEqual([]);
    expect((await docs({ element: page })).map((doc) => doc.source)).toEqual(['element']);
  });

  it('follows transcriptions made in bulk with their new elements', async () => {
    const image = await makeImage(t().app, corpusId, 1000, 800);
    const page = await createElement('Bulk page', 'page', { image: image.id });
    const run = await makeWorkerRun(t().app, corpusId);
    const box = (n: number) => [
      [10, 10 + 30 * n],
      [310, 10 + 30 * n],
      [310, 35 + 30 * n],
      [10, 35 + 30 * n],
    ];
    const response = await as('contributor').post(`element/${page}/transcriptions/bulk/`, {
      element_type: 'text_line',
      worker_run_id: run.id,
      transcriptions: [
        { polygon: box(0), text: 'erste Zeile Hauſes', confidence: 0.9 },
        { polygon: box(1), text: 'zweite Zeile', confidence: 0.8 },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    await flush();
    const hits = await found('zeile');
    expect(hits).toHaveLength(2);
    const hausDocs = (await found('hauses')).map((hit) => hit.split(':')[1]);
    expect(hausDocs).toHaveLength(1);
    const stored = await t()
      .app.db.selectFrom('search_documents')
      .selectAll()
      .where('item_id', '=', hausDocs[0]!)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      source: 'transcription',
      type_id: types.text_line,
      worker_run_id: run.id,
    });
  });

  it('follows metadata and classifications, one by one and in bulk, and class renames', async () => {
    const page = await createElement('Described page');
    const allowed = await as('owner').post(`corpus/${corpusId}/allowed-metadata/`, {
      type: 'text',
      name: 'Author',
    });
    expect(allowed.statusCode, allowed.body).toBe(201);
    const meta = await as('contributor').post(`element/${page}/metadata/`, {
      type: 'text',
      name: 'Author',
      value: 'Jehan de Mandeville',
    });
    expect(meta.statusCode, meta.body).toBe(201);
    await flush();
    expect(await found('mandeville')).toEqual([`metadata:${meta.json().id}`]);
    expect((await docs({ element: page })).find((doc) => doc.source === 'metadata')).toMatchObject({
      metadata_name: 'Author',
    });
    const changed = await as('contributor').patch(`metadata/${meta.json().id}/`, {
      value: 'Christine de Pizan',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await flush();
    expect(await found('mandeville')).toEqual([]);
    expect(await found('pizan')).toEqual([`metadata:${meta.json().id}`]);
    expect((await as('contributor').delete(`metadata/${meta.json().id}/`)).statusCode).toBe(204);
    await flush();
    expect(await found('pizan')).toEqual([]);

    const makeClass = async (name: string) => {
      const response = await as('owner').post(`corpus/${corpusId}/classes/`, { name });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const charter = await makeClass('charter');
    const psalter = await makeClass('psalter');
    const one = await as('contributor').post('classifications/', {
      element: page,
      ml_class: charter,
    });
    expect(one.statusCode, one.body).toBe(201);
    await flush();
    expect(await found('charter')).toEqual([`classification:${one.json().id}`]);

    const run = await makeWorkerRun(t().app, corpusId);
    const bulk = await as('contributor').post('classification/bulk/', {
      parent: page,
      worker_run_id: run.id,
      classifications: [{ ml_class: psalter, confidence: 0.6 }],
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    await flush();
    const psalterDocs = (await docs({ element: page })).filter(
      (doc) => doc.ml_class_id === psalter,
    );
    expect(psalterDocs).toEqual([
      {
        source: 'classification',
        item_id: bulk.json().classifications[0].id,
        element_id: page,
        type_id: types.page,
        worker_run_id: run.id,
        ml_class_id: psalter,
        metadata_name: null,
        entity_type_id: null,
        confidence: 0.6,
      },
    ]);

    const renamed = await as('owner').patch(`corpus/${corpusId}/classes/${psalter}/`, {
      name: 'breviary',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await flush();
    expect(await found('psalter')).toEqual([]);
    expect(await found('breviary')).toEqual([
      `classification:${bulk.json().classifications[0].id}`,
    ]);
  });

  it('follows a bulk deletion of the selection run as a job', async () => {
    const ids = await Promise.all(['Doomed one', 'Doomed two'].map((name) => createElement(name)));
    await flush();
    expect(await found('doomed')).toHaveLength(2);
    const selected = await as('owner').post('elements/selection/', { ids });
    expect(selected.statusCode, selected.body).toBeLessThan(300);
    const deleted = await as('owner').delete(`corpus/${corpusId}/selection/`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await t().app.jobs.drain();
    await flush();
    expect(await found('doomed')).toEqual([]);
  });

  it('follows rows written with plain SQL', async () => {
    const id = randomUUID();
    const now = new Date().toISOString();
    await sql`insert into elements (id, corpus_id, type_id, name, created, updated)
      values (${id}, ${corpusId}, ${types.page}, ${'Raw Ωmega'}, ${now}, ${now})`.execute(
      t().app.db,
    );
    await sql`insert into transcriptions (id, element_id, text, created, updated)
      values (${randomUUID()}, ${id}, ${'ſchrift'}, ${now}, ${now})`.execute(t().app.db);
    await flush();
    expect(await found('ωmega')).toEqual([`element:${id}`]);
    expect((await found('schrift')).length).toBe(1);
    await sql`delete from elements where id = ${id}`.execute(t().app.db);
    await flush();
    expect(await docs({ element: id })).toEqual([]);
  });

  it.runIf(dialect === 'postgres')(
    'follows rows written by a session with another search path, schema-qualified',
    async () => {
      const schema = t().config.databaseSchema!;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      const id = randomUUID();
      const now = new Date().toISOString();
      try {
        await client.query(
          `insert into ${schema}.elements (id, corpus_id, type_id, name, created, updated)
          values ($1, $2, $3, 'Fremdes Siegel', $4, $4)`,
          [id, corpusId, types.page, now],
        );
      } finally {
        await client.end();
      }
      await flush();
      expect(await found('siegel')).toEqual([`element:${id}`]);
    },
  );

  it.runIf(withShared)(
    'indexes a PAGE XML import',
    async () => {
      const admin = await t()
        .app.db.selectFrom('users')
        .select('id')
        .where('id', '=', actors.owner.id)
        .executeTakeFirstOrThrow();
      const report = await runImport(
        { db: t().app.db, dataDir: t().config.dataDir },
        path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text', 'bebel_frau_1879', 'GT-PAGE'),
        { corpusId, userId: admin.id, parentId: null },
      );
      expect(report.pages).toBe(1);
      await flush();
      // "Gartenwirthschaft" and "gesündere" are on a line of the page (and in its region's text);
      // the second folds its umlaut.
      for (const word of ['gartenwirthschaft', 'gesundere']) {
        const hits = await found(word);
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.every((hit) => hit.startsWith('transcription:'))).toBe(true);
      }
      const lines = await t()
        .app.db.selectFrom('transcriptions')
        .innerJoin('elements', 'elements.id', 'transcriptions.element_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('elements.corpus_id', '=', corpusId)
        .executeTakeFirstOrThrow();
      const indexed = (await docs({ corpus: corpusId })).filter(
        (d) => d.source === 'transcription',
      );
      expect(indexed).toHaveLength(Number(lines.n));
    },
    120_000,
  );

  it('indexes, once migrated, the elements that existed before the migration', async () => {
    const { db } = t().app;
    await migration.down(db as never);
    const ids = await insertElements(t().app, corpusId, [
      { name: 'Ancient folder', type: 'folder' },
      { name: 'Ancient page', type: 'page', parent: 'Ancient folder' },
    ]);
    await sql`insert into transcriptions (id, element_id, text, created, updated)
      values (${randomUUID()}, ${ids['Ancient page']!}, ${'Vetus textus'}, ${'2020-01-01T00:00:00Z'},
      ${'2020-01-01T00:00:00Z'})`.execute(db);
    await migration.up(db as never);
    const total = Number(
      (
        await db
          .selectFrom('elements')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(await pendingCount(handle())).toBe(total);
    expect(await flush()).toBe(0);
    expect(await found('ancient')).toHaveLength(2);
    expect(await found('vetus')).toHaveLength(1);
  });

  it.runIf(dialect === 'postgres')(
    'writes a text of more distinct words than a tsvector holds, keeping its first ones',
    async () => {
      const tokens = Array.from({ length: 200_000 }, (_, i) => `wort${i}`);
      const literal = tsvectorLiteral([...tokens, ...tokens.slice(0, 10)]);
      const { rows } = await sql<{ n: number; first: boolean; last: boolean }>`
        select length(${literal}::tsvector) as n,
          ${literal}::tsvector @@ 'wort0'::tsquery as first,
          ${literal}::tsvector @@ 'wort199999'::tsquery as last`.execute(t().app.db);
      expect(rows[0]!.first).toBe(true);
      expect(rows[0]!.last).toBe(false);
      expect(Number(rows[0]!.n)).toBeGreaterThan(50_000);
    },
  );

  it('leaves out, and reports, an element whose documents cannot be written, not the others', async () => {
    const { db } = t().app;
    const ids = await insertElements(t().app, corpusId, [
      { name: 'Healthy Kodex one', type: 'page' },
      { name: 'Poisoned Kodex', type: 'page' },
      { name: 'Healthy Kodex two', type: 'page' },
    ]);
    const poisoned = ids['Poisoned Kodex']!;
    if (dialect === 'sqlite') {
      await sql
        .raw(
          `create trigger test_poison before insert on search_documents
          when new.item_id = '${poisoned}' begin select raise(abort, 'poisoned'); end`,
        )
        .execute(db);
    } else {
      await sql
        .raw(
          `create function test_poison() returns trigger language plpgsql as $$ begin
          if new.item_id = '${poisoned}' then raise exception 'poisoned'; end if;
          return new; end $$`,
        )
        .execute(db);
      await sql`create trigger test_poison before insert on search_documents
        for each row execute function test_poison()`.execute(db);
    }
    try {
      const result = await flushPending(handle());
      expect(result.skipped.map((skip) => skip.elementId)).toEqual([poisoned]);
      expect(String(result.skipped[0]!.error)).toContain('poisoned');
      expect(result.remaining).toBe(0);
      expect(await found('kodex')).toEqual(
        [`element:${ids['Healthy Kodex one']}`, `element:${ids['Healthy Kodex two']}`].sort(),
      );
    } finally {
      await sql
        .raw(`drop trigger test_poison${dialect === 'postgres' ? ' on search_documents' : ''}`)
        .execute(db);
      if (dialect === 'postgres') await sql`drop function test_poison()`.execute(db);
    }
    await t()
      .app.db.updateTable('elements')
      .set({ name: 'Cured Kodex' })
      .where('id', '=', poisoned)
      .execute();
    await flush();
    expect(await found('cured')).toEqual([`element:${poisoned}`]);
  });

  it('runs a follower that indexes in the background until stopped', async () => {
    const follower = createSearchFollower(handle(), t().app.log, { intervalMs: 20 });
    follower.start();
    try {
      const id = await createElement('Followed Pergament');
      const deadline = Date.now() + 5000;
      while ((await found('pergament')).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await found('pergament')).toEqual([`element:${id}`]);
    } finally {
      await follower.stop();
    }
    await createElement('Unfollowed Pergament');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await found('pergament')).toHaveLength(1);
    await flush();
  });

  it('starts its follower when the server listens and stops it when the server closes', async () => {
    const served = await makeTestApp(dialect);
    const port = dialect === 'sqlite' ? 8611 : 8612;
    try {
      const { app } = served;
      const { privateId } = await makeActorsAndProjects(app);
      const ids = await insertElements(app, privateId, [{ name: 'Served Urkunde', type: 'page' }]);
      // Not listening: nothing indexes in the background.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const count = () =>
        app.db
          .selectFrom('search_documents')
          .select('item_id')
          .where('element_id', '=', ids['Served Urkunde']!)
          .execute();
      expect(await count()).toEqual([]);
      await app.listen({ port, host: '127.0.0.1' });
      const deadline = Date.now() + 10_000;
      while ((await count()).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await count()).toEqual([{ item_id: ids['Served Urkunde'] }]);
    } finally {
      await served.close();
    }
  });

  it.runIf(dialect === 'postgres')(
    'indexes each pending element once when two flushes run at once',
    async () => {
      const now = new Date().toISOString();
      const rows = Array.from({ length: 600 }, (_, i) => ({
        id: randomUUID(),
        corpus_id: corpusId,
        type_id: types.text_line!,
        name: `Concurrent ${i}`,
        rotation_angle: 0,
        mirrored: 0 as const,
        created: now,
        updated: now,
      }));
      await t().app.db.insertInto('elements').values(rows).execute();
      // Half of them marked twice.
      await t()
        .app.db.updateTable('elements')
        .set({ name: sql`name || ' again'` })
        .where(
          'id',
          'in',
          rows.slice(0, 300).map((row) => row.id),
        )
        .execute();
      const [first, second] = await Promise.all([
        flushPending(handle(), { batchSize: 50 }),
        flushPending(handle(), { batchSize: 50 }),
      ]);
      expect(first.indexed + second.indexed).toBe(600);
      expect(first.indexed).toBeGreaterThan(0);
      expect(second.indexed).toBeGreaterThan(0);
      expect(await pendingCount(handle())).toBe(0);
      expect(await found('concurrent')).toHaveLength(600);
      expect(await found('again')).toHaveLength(300);
    },
  );
});
