/**
 * The search syntax table (tests/search/syntaxCases.ts) through GET /corpus/{id}/search/, on
 * each database's engine: FTS5 on SQLite, tsvector/tsquery on PostgreSQL. Every doc is made
 * through the API as the text of its source; each case expects exactly its hits, or a 400 with
 * its message.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeCast, type Cast } from '../actors';
import { SYNTAX_CASES, SYNTAX_DOCS } from '../../search/syntaxCases';
import {
  hitKeys,
  loadDocs,
  makeIndexableProject,
  searchAll,
  searchUrl,
  type LoadedDocs,
} from './apiHelpers';

describeEachDialect('the search syntax on the database engine', ({ t }) => {
  let cast: Cast<'owner'>;
  let corpusId: string;
  let loaded: LoadedDocs;
  const owner = () => clientFor(t().app, cast, 'owner');

  beforeAll(async () => {
    cast = await makeCast(t().app, { owner: { displayName: 'Owner' } });
    corpusId = await makeIndexableProject(owner(), 'Syntax');
    loaded = await loadDocs(owner(), corpusId, SYNTAX_DOCS);
  });

  for (const entry of SYNTAX_CASES) {
    const label = JSON.stringify(
      entry.query.length > 60 ? `${entry.query.slice(0, 60)}…` : entry.query,
    );
    if ('error' in entry) {
      it(`refuses ${label}`, async () => {
        const response = await owner().get(searchUrl(corpusId, { query: entry.query }));
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          type: 'validation_error',
          errors: [{ code: 'invalid', detail: entry.error, attr: 'query' }],
        });
      });
    } else {
      it(`finds ${label}`, async () => {
        const { hits } = await searchAll(owner(), corpusId, { query: entry.query });
        expect(hitKeys(loaded, hits)).toEqual(entry.hits);
      });
    }
  }
});
