/**
 * GET /corpus/{id}/search/ (search contract §3) on each database: every field of a hit for each
 * source, facets and facet filters, only_facets, sources, sorts, pagination, rights, the feature
 * flag, indexable projects, refused parameters, queries typed as SQL or FTS syntax, and writes
 * found by the very next search.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDialect } from '../harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from '../actors';
import { insertElements, makeImage } from '../elementsFixtures';
import { INVALID_PAGE, NOT_FOUND, UNKNOWN_ID, validation } from '../expectedErrors';
import { makeWorkerRun } from '../workerRunFixtures';
import { workerRunSummary } from '../../../server/services/workerRuns';
import {
  makeIndexableProject,
  searchAll,
  searchUrl,
  type Hit,
  type SearchBody,
} from './apiHelpers';

const EMPTY_ITEM = {
  transcription_id: null,
  transcription_text: null,
  transcription_confidence: null,
  classification_id: null,
  classification_name: null,
  classification_confidence: null,
  metadata_id: null,
  metadata_type: null,
  metadata_name: null,
  metadata_text: null,
  transcription_entity_id: null,
  transcription_entity_text: null,
  transcription_entity_type: null,
};

const NOT_INDEXABLE = validation('corpus', 'This project is not indexable.');

describeEachDialect('searching a project', ({ t }) => {
  let actors: Actors;
  let corpusId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const get = async (params: Record<string, string | string[]>, role: Role = 'guest') => {
    const response = await as(role).get(searchUrl(corpusId, params));
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SearchBody;
  };
  const ids = (body: { results: Hit[] } | Hit[]) =>
    (Array.isArray(body) ? body : body.results).map((hit) => hit.id).sort();

  // The project: a folder holding a page on an image, whose line carries every kind of item.
  let el: Record<string, string>;
  let imageUrl: string;
  let runId: string;
  let runSummary: string;
  let transcriptionId: string;
  let metadataId: string;
  let classificationId: string;
  let entityId: string;
  let classId: string;

  beforeAll(async () => {
    const app = t().app;
    actors = await makeActors(app);
    corpusId = await makeCorpus(app, actors, { name: 'Registers' });
    const patched = await as('owner').patch(`corpus/${corpusId}/`, { indexable: true });
    expect(patched.statusCode).toBe(200);
    const image = await makeImage(app, corpusId);
    imageUrl = image.url!;
    el = await insertElements(app, corpusId, [
      { name: 'Volume Lutetia', type: 'folder' },
      { name: 'Folio Lutetia', type: 'page', parent: 'Volume Lutetia', image: image.id },
      {
        name: 'Line Lutetia',
        type: 'text_line',
        parent: 'Folio Lutetia',
        image: image.id,
        polygon: [
          [10, 20],
          [10, 60],
          [300, 60],
          [300, 20],
          [10, 20],
        ],
      },
    ]);
    const owner = as('owner');
    const run = await makeWorkerRun(app, corpusId, { workerName: 'Recogniser' });
    runId = run.id;
    runSummary = (await workerRunSummary(app.db, runId))!.summary;

    const transcription = await owner.post(`element/${el['Line Lutetia']}/transcription/`, {
      text: 'Lutetia Parisiorum anno domini',
      confidence: 0.75,
    });
    expect(transcription.statusCode, transcription.body).toBe(201);
    transcriptionId = transcription.json().id;
    // A worker's result: written straight to the table, as a worker's bulk insert would.
    await app.db
      .updateTable('transcriptions')
      .set({ worker_run_id: runId })
      .where('id', '=', transcriptionId)
      .execute();

    expect(
      (await owner.post(`corpus/${corpusId}/allowed-metadata/`, { type: 'text', name: 'place' }))
        .statusCode,
    ).toBe(201);
    const metadata = await owner.post(`element/${el['Line Lutetia']}/metadata/`, {
      type: 'text',
      name: 'place',
      value: 'Lutetia on the Seine',
    });
    expect(metadata.statusCode, metadata.body).toBe(201);
    metadataId = metadata.json().id;

    const mlClass = await owner.post(`corpus/${corpusId}/classes/`, { name: 'Lutetia' });
    expect(mlClass.statusCode).toBe(201);
    classId = mlClass.json().id;
    const classification = await owner.post('classifications/', {
      element: el['Line Lutetia'],
      ml_class: classId,
    });
    expect(classification.statusCode, classification.body).toBe(201);
    classificationId = classification.json().id;

    const entityType = await owner.post('entity/types/', { name: 'city', corpus: corpusId });
    expect(entityType.statusCode).toBe(201);
    const entities = await owner.post(`transcription/${transcriptionId}/entities/bulk/`, {
      transcription_entities: [{ offset: 0, length: 18, type_id: entityType.json().id }],
    });
    expect(entities.statusCode, entities.body).toBe(201);
    entityId = entities.json().transcription_entities[0].id;
  });

  describe('hits', () => {
    it('fill every field for each source', async () => {
      const body = await get({ query: 'lutetia' });
      expect(body.count).toBe(7);
      const byId = new Map(body.results.map((hit) => [hit.id, hit]));
      const line = {
        element_id: el['Line Lutetia'],
        element_type: 'text_line',
        element_text: 'Line Lutetia',
        element_image: imageUrl,
        element_polygon: [
          [10, 20],
          [10, 60],
          [300, 60],
          [300, 20],
          [10, 20],
        ],
        page_id: el['Folio Lutetia'],
        page_name: 'Folio Lutetia',
        parent_id: el['Folio Lutetia'],
        parent_type: 'page',
        parent_name: 'Folio Lutetia',
      };
      expect(byId.get(`element:${el['Line Lutetia']}`)).toEqual({
        id: `element:${el['Line Lutetia']}`,
        source: 'element',
        ...line,
        worker_run_id: null,
        ...EMPTY_ITEM,
      });
      expect(byId.get(`transcription:${transcriptionId}`)).toEqual({
        id: `transcription:${transcriptionId}`,
        source: 'transcription',
        ...line,
        worker_run_id: runId,
        ...EMPTY_ITEM,
        transcription_id: transcriptionId,
        transcription_text: 'Lutetia Parisiorum anno domini',
        transcription_confidence: 0.75,
      });
      expect(byId.get(`metadata:${metadataId}`)).toEqual({
        id: `metadata:${metadataId}`,
        source: 'metadata',
        ...line,
        worker_run_id: null,
        ...EMPTY_ITEM,
        metadata_id: metadataId,
        metadata_type: 'text',
        metadata_name: 'place',
        metadata_text: 'Lutetia on the Seine',
      });
      expect(byId.get(`classification:${classificationId}`)).toEqual({
        id: `classification:${classificationId}`,
        source: 'classification',
        ...line,
        worker_run_id: null,
        ...EMPTY_ITEM,
        classification_id: classificationId,
        classification_name: 'Lutetia',
        classification_confidence: 1,
      });
      expect(byId.get(`transcription_entity:${entityId}`)).toEqual({
        id: `transcription_entity:${entityId}`,
        source: 'transcription_entity',
        ...line,
        worker_run_id: null,
        ...EMPTY_ITEM,
        transcription_entity_id: entityId,
        transcription_entity_text: 'Lutetia Parisiorum',
        transcription_entity_type: 'city',
      });
      // The page opens itself (its folder has no image); the folder has no image nor parent.
      expect(byId.get(`element:${el['Folio Lutetia']}`)).toMatchObject({
        element_type: 'page',
        element_image: imageUrl,
        element_polygon: [
          [0, 0],
          [0, 800],
          [1000, 800],
          [1000, 0],
          [0, 0],
        ],
        page_id: el['Folio Lutetia'],
        parent_id: el['Volume Lutetia'],
        parent_type: 'folder',
        parent_name: 'Volume Lutetia',
      });
      expect(byId.get(`element:${el['Volume Lutetia']}`)).toMatchObject({
        element_type: 'folder',
        element_image: null,
        element_polygon: null,
        page_id: el['Volume Lutetia'],
        page_name: 'Volume Lutetia',
        parent_id: null,
        parent_type: null,
        parent_name: null,
      });
    });

    it('rank the documents that hold the words more often first', async () => {
      const owner = as('owner');
      const [often, once] = await Promise.all(
        ['Rarissimum rarissimum rarissimum', 'Rarissimum est verbum inter multa alia verba'].map(
          async (name) => {
            const made = await owner.post('elements/create/', {
              corpus: corpusId,
              type: 'text_line',
              name,
            });
            expect(made.statusCode).toBe(201);
            return made.json().id as string;
          },
        ),
      );
      for (const query of ['rarissimum', 'rarissimum + -nothingatall', 'rarissimum -verbum']) {
        const body = await get({ query });
        expect(body.results.slice(0, 2).map((hit) => hit.element_id)).toEqual([often, once]);
      }
    });
  });

  describe('facets', () => {
    it('count every match by element type, worker run, class, metadata name and entity type', async () => {
      const body = await get({ query: 'lutetia' });
      expect(body.facets).toEqual({
        element_type: [
          { value: 'text_line', label: 'Text line', count: 5 },
          { value: 'folder', label: 'Folder', count: 1 },
          { value: 'page', label: 'Page', count: 1 },
        ],
        worker_run: [
          { value: 'manual', label: 'Manual', count: 6 },
          { value: runId, label: runSummary, count: 1 },
        ],
        classification_name: [{ value: 'Lutetia', label: 'Lutetia', count: 1 }],
        metadata_name: [{ value: 'place', label: 'place', count: 1 }],
        entity_type: [{ value: 'city', label: 'city', count: 1 }],
      });
    });

    it('filter the hits and the counts, OR within a facet and AND across facets', async () => {
      const lines = await get({ query: 'lutetia', element_type: 'text_line' });
      expect(lines.count).toBe(5);
      // A facet's own values keep every other value's count, so a second one can be ticked.
      expect(lines.facets.element_type).toEqual([
        { value: 'text_line', label: 'Text line', count: 5 },
        { value: 'folder', label: 'Folder', count: 1 },
        { value: 'page', label: 'Page', count: 1 },
      ]);
      expect(lines.facets.worker_run).toEqual([
        { value: 'manual', label: 'Manual', count: 4 },
        { value: runId, label: runSummary, count: 1 },
      ]);

      const pagesAndFolders = await get({ query: 'lutetia', element_type: ['page', 'folder'] });
      expect(ids(pagesAndFolders)).toEqual(
        [`element:${el['Folio Lutetia']}`, `element:${el['Volume Lutetia']}`].sort(),
      );

      const byRun = await get({ query: 'lutetia', worker_run: runId });
      expect(ids(byRun)).toEqual([`transcription:${transcriptionId}`]);
      const manualLines = await get({
        query: 'lutetia',
        worker_run: 'manual',
        element_type: 'text_line',
      });
      expect(manualLines.count).toBe(4);
      // Each facet is counted with the other facet's filter alone.
      expect(manualLines.facets.element_type).toEqual([
        { value: 'text_line', label: 'Text line', count: 4 },
        { value: 'folder', label: 'Folder', count: 1 },
        { value: 'page', label: 'Page', count: 1 },
      ]);
      expect(manualLines.facets.worker_run).toEqual([
        { value: 'manual', label: 'Manual', count: 4 },
        { value: runId, label: runSummary, count: 1 },
      ]);
      const both = await get({ query: 'lutetia', worker_run: ['manual', runId] });
      expect(both.count).toBe(7);

      expect(ids(await get({ query: 'lutetia', classification_name: 'Lutetia' }))).toEqual([
        `classification:${classificationId}`,
      ]);
      expect(ids(await get({ query: 'lutetia', metadata_name: 'place' }))).toEqual([
        `metadata:${metadataId}`,
      ]);
      expect(ids(await get({ query: 'lutetia', entity_type: 'city' }))).toEqual([
        `transcription_entity:${entityId}`,
      ]);
      // Two facets that no document has together.
      const none = await get({ query: 'lutetia', entity_type: 'city', metadata_name: 'place' });
      expect(none.count).toBe(0);
      expect(none.results).toEqual([]);
      expect(none.facets.element_type).toEqual([]);
      // Values nobody has find nothing rather than failing.
      expect((await get({ query: 'lutetia', element_type: 'nope' })).count).toBe(0);
      expect((await get({ query: 'lutetia', worker_run: UNKNOWN_ID })).count).toBe(0);
    });

    it('alone with only_facets: the count and facets without hits', async () => {
      const body = await get({ query: 'lutetia', only_facets: 'true' });
      expect(body.count).toBe(7);
      expect(body.results).toEqual([]);
      expect(body.facets.element_type).toHaveLength(3);
      const withHits = await get({ query: 'lutetia', only_facets: 'false' });
      expect(withHits.results).toHaveLength(7);
    });
  });

  describe('sources and sort', () => {
    it('keep the sources asked for, however they are written', async () => {
      const expected = [`metadata:${metadataId}`, `transcription:${transcriptionId}`].sort();
      for (const sources of [
        'transcription,metadata',
        ['transcription', 'metadata'],
        ['transcription, metadata', ''],
      ]) {
        expect(ids(await get({ query: 'lutetia', sources }))).toEqual(expected);
      }
      const brackets = await as('guest').get(
        `corpus/${corpusId}/search/?query=lutetia&sources[]=transcription&sources[]=metadata`,
      );
      expect(ids(brackets.json())).toEqual(expected);
      const all = await get({
        query: 'lutetia',
        sources: 'element,transcription,metadata,transcription_entity,classification',
      });
      expect(all.count).toBe(7);
      const entityOnly = await get({ query: 'lutetia', sources: 'transcription_entity' });
      expect(entityOnly.facets.entity_type).toEqual([{ value: 'city', label: 'city', count: 1 }]);
      expect(entityOnly.facets.metadata_name).toEqual([]);
    });

    it('sorts by element name, then element id', async () => {
      const body = await get({ query: 'lutetia', sort: 'element_name' });
      const names = body.results.map((hit) => hit.element_text);
      expect(names).toEqual(['Folio Lutetia', ...Array(5).fill('Line Lutetia'), 'Volume Lutetia']);
    });
  });

  describe('pagination', () => {
    let pagedId: string;
    beforeAll(async () => {
      pagedId = await makeIndexableProject(as('owner'), 'Paged');
      await insertElements(
        t().app,
        pagedId,
        Array.from({ length: 27 }, (_, index) => ({
          name: `Charter ${String(index + 1).padStart(2, '0')}`,
          type: 'page',
        })),
      );
    });

    it('pages by 20 with links to the next and previous pages', async () => {
      const owner = as('owner');
      const first = await owner.get(searchUrl(pagedId, { query: 'charter', sort: 'element_name' }));
      expect(first.statusCode).toBe(200);
      const one = first.json() as SearchBody;
      expect(one.count).toBe(27);
      expect(one.number).toBe(1);
      expect(one.previous).toBeNull();
      expect(one.results).toHaveLength(20);
      expect(one.results[0]!.element_text).toBe('Charter 01');
      const next = new URL(one.next!);
      expect(next.searchParams.get('page')).toBe('2');
      expect(next.searchParams.get('query')).toBe('charter');
      expect(next.searchParams.get('sort')).toBe('element_name');

      const second = await owner.get(next.pathname + next.search);
      const two = second.json() as SearchBody;
      expect(two.number).toBe(2);
      expect(two.next).toBeNull();
      expect(two.results.map((hit) => hit.element_text)).toEqual(
        Array.from({ length: 7 }, (_, index) => `Charter ${index + 21}`),
      );
      const previous = new URL(two.previous!);
      expect(previous.searchParams.has('page')).toBe(false);
      // Facets are the whole match set's on every page.
      expect(two.facets.element_type).toEqual([{ value: 'page', label: 'Page', count: 27 }]);

      const beyond = await owner.get(searchUrl(pagedId, { query: 'charter', page: '3' }));
      expect(beyond.statusCode).toBe(404);
      expect(beyond.json()).toEqual(INVALID_PAGE);
      const empty = await owner.get(searchUrl(pagedId, { query: 'nothingatall' }));
      expect(empty.json()).toMatchObject({ count: 0, number: 1, next: null, results: [] });
    });

    it('finds every document of a pure negation or of an empty query', async () => {
      const { hits } = await searchAll(as('owner'), pagedId, { query: '-"charter 05"' });
      expect(hits).toHaveLength(26);
      expect((await searchAll(as('owner'), pagedId, { query: '' })).hits).toHaveLength(27);
      expect((await searchAll(as('owner'), pagedId, { query: '*' })).hits).toHaveLength(27);
    });
  });

  describe('rights and refusals', () => {
    it('are answered 404 for projects the caller cannot read, unknown or not ids', async () => {
      for (const role of ['outsider', 'anonymous'] as const) {
        const response = await as(role).get(searchUrl(corpusId, { query: 'lutetia' }));
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      for (const id of [UNKNOWN_ID, 'not-an-id', "1' OR '1'='1"]) {
        const response = await as('guest').get(
          `corpus/${encodeURIComponent(id)}/search/?query=lutetia`,
        );
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it('lets anyone search a public project', async () => {
      const publicId = await makeIndexableProject(as('owner'), 'Open', { public: true });
      await insertElements(t().app, publicId, [{ name: 'Public charter', type: 'page' }]);
      for (const role of ['anonymous', 'outsider'] as const) {
        const response = await as(role).get(searchUrl(publicId, { query: 'charter' }));
        expect(response.statusCode).toBe(200);
        expect(response.json().results.map((hit: Hit) => hit.element_text)).toEqual([
          'Public charter',
        ]);
      }
    });

    it('refuses a project that is not indexable', async () => {
      const closed = await as('owner').post('corpus/', { name: 'Closed' });
      const response = await as('owner').get(searchUrl(closed.json().id, { query: 'x' }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(NOT_INDEXABLE);
    });

    it('refuses each bad parameter on its name', async () => {
      const cases: [Record<string, string | string[]>, ReturnType<typeof validation>][] = [
        [
          { sources: 'transcription,pages' },
          validation('sources', '"pages" is not a valid choice.', 'invalid_choice'),
        ],
        [{ sort: 'date' }, validation('sort', '"date" is not a valid choice.', 'invalid_choice')],
        [{ page: 'two' }, validation('page', 'A valid integer is required.')],
        [{ page: '-1' }, validation('page', 'A valid integer is required.')],
        [
          { page: '0' },
          validation('page', 'Ensure this value is greater than or equal to 1.', 'min_value'),
        ],
        [{ only_facets: 'maybe' }, validation('only_facets', 'Must be a valid boolean.')],
        [
          { worker_run: 'robot' },
          validation('worker_run', '"robot" is not a worker run id or "manual".'),
        ],
        [
          { entity_type: 'ci\u0000ty' },
          validation('entity_type', 'Null characters are not allowed.'),
        ],
        [
          { query: 'lu\u0000tetia', classification_name: ['a', '\u0000'] },
          validation('classification_name', 'Null characters are not allowed.'),
        ],
        [
          { metadata_name: Array.from({ length: 101 }, (_, index) => `name ${index}`) },
          validation(
            'metadata_name',
            'Ensure this field has no more than 100 elements.',
            'max_length',
          ),
        ],
        [{ query: '"unclosed' }, validation('query', 'The query has a quote that is not closed.')],
        [
          { query: 'x'.repeat(2000) },
          validation('query', 'Ensure this field has no more than 1000 characters.'),
        ],
      ];
      for (const [params, expected] of cases) {
        const response = await as('guest').get(searchUrl(corpusId, params));
        expect(response.statusCode, JSON.stringify(params)).toBe(400);
        expect(response.json()).toEqual(expected);
      }
      const several = await as('guest').get(searchUrl(corpusId, { sort: 'date', page: 'x' }));
      expect(several.json().errors.map((error: { attr: string }) => error.attr)).toEqual([
        'sort',
        'page',
      ]);
    });
  });

  describe('the feature flag', () => {
    it('is on in this app', async () => {
      expect((await as('guest').get(searchUrl(corpusId))).statusCode).toBe(200);
    });
  });

  describe('queries typed as SQL or full-text syntax', () => {
    it('are read as words, never run', async () => {
      const owner = as('owner');
      const made = await owner.post('elements/create/', {
        corpus: corpusId,
        type: 'text_line',
        name: 'drop table elements select',
      });
      expect(made.statusCode).toBe(201);
      const queries = [
        "'; DROP TABLE elements; --",
        "drop' OR '1'='1",
        'elements" OR "1',
        'NEAR(drop select, 1)',
        'drop:table',
        '{body}: drop',
        'table*elements',
        '"drop" NOT "table"',
        "$$ ' \\ drop :* & | ! <->",
        ') OR 1=1 --(',
      ];
      for (const query of queries) {
        const response = await as('guest').get(searchUrl(corpusId, { query }));
        expect([200, 400], query).toContain(response.statusCode);
        if (response.statusCode === 200) {
          expect(ids(response.json()), query).toContain(`element:${made.json().id}`);
        }
      }
      // Longer than any word PostgreSQL can index: found nowhere, on either database.
      const huge = '中'.repeat(700);
      for (const query of [huge, `${huge}*`, `-${huge} + drop`, `"${huge} drop"`]) {
        const response = await as('guest').get(searchUrl(corpusId, { query }));
        expect(response.statusCode, response.body).toBe(200);
        expect(ids(response.json()), query).toEqual(
          query.includes('+ drop') ? [`element:${made.json().id}`] : [],
        );
      }
      const row = await sql<{ n: number }>`select count(*) as n from elements`.execute(t().app.db);
      expect(Number(row.rows[0]!.n)).toBeGreaterThan(0);
    });

    it('answer deep nestings within the length limit', async () => {
      const chained = Array.from({ length: 160 }, (_, index) =>
        index % 2 ? `+ w${index}` : `w${index}`,
      ).join(' ');
      const nested = `${'('.repeat(200)}lutetia${')'.repeat(200)}`;
      const negated =
        Array.from({ length: 120 }, (_, index) => `-(w${index}`).join(' ') + ')'.repeat(120);
      const alternating = `lutetia${'+b|c'.repeat(248)}`;
      for (const query of [chained, nested, negated, `lutetia ${chained}`, alternating]) {
        expect(query.length).toBeLessThanOrEqual(1000);
        const response = await as('guest').get(searchUrl(corpusId, { query }));
        expect(response.statusCode, response.body).toBe(200);
      }
      expect((await get({ query: nested })).count).toBe(7);
    });
  });

  describe('writes', () => {
    it('are found by the very next search', async () => {
      const owner = as('owner');
      const made = await owner.post(`element/${el['Folio Lutetia']}/transcription/`, {
        text: 'Quaestor urbanus',
      });
      expect(made.statusCode).toBe(201);
      const id = `transcription:${made.json().id}`;
      expect(ids(await get({ query: 'quaestor' }))).toEqual([id]);

      const edited = await owner.patch(`transcription/${made.json().id}/`, {
        text: 'Praetor urbanus',
      });
      expect(edited.statusCode).toBe(200);
      expect((await get({ query: 'quaestor' })).count).toBe(0);
      const praetor = await get({ query: 'praetor' });
      expect(ids(praetor)).toEqual([id]);
      expect(praetor.results[0]!.transcription_text).toBe('Praetor urbanus');

      expect((await owner.delete(`transcription/${made.json().id}/`)).statusCode).toBe(204);
      expect((await get({ query: 'praetor' })).count).toBe(0);
    });
  });
});

describeEachDialect(
  'searching with the search feature off',
  ({ t }) => {
    it('is a 404, as an unknown path', async () => {
      const actors = await makeActors(t().app);
      const owner = clientFor(t().app, actors, 'owner');
      const id = await makeIndexableProject(owner, 'Hidden');
      const response = await owner.get(searchUrl(id, { query: 'x' }));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  },
  { FOLIA_FEATURES: 'selection,signup' },
);
