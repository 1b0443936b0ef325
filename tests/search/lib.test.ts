import { describe, expect, it } from 'vitest';
import { matchesDocument } from '../../src/lib/search/evaluate';
import { tokenize } from '../../src/lib/search/fold';
import { parseSearchQuery } from '../../src/lib/search/query';
import { SYNTAX_CASES, SYNTAX_DOCS } from './syntaxCases';

const label = (query: string) => (query.length > 40 ? `${query.slice(0, 37)}…` : query);

describe('the syntax table', () => {
  it('has unique document keys, sorted hits naming known documents, and enough cases', () => {
    const keys = new Set(SYNTAX_DOCS.map((d) => d.key));
    expect(keys.size).toBe(SYNTAX_DOCS.length);
    expect(SYNTAX_DOCS.length).toBeGreaterThanOrEqual(25);
    expect(SYNTAX_CASES.length).toBeGreaterThanOrEqual(45);
    for (const c of SYNTAX_CASES) {
      if (!('hits' in c)) continue;
      expect(c.hits, c.query).toEqual([...c.hits].sort());
      for (const hit of c.hits) expect(keys.has(hit), hit).toBe(true);
    }
  });

  const docs = SYNTAX_DOCS.map((d) => ({ key: d.key, tokens: tokenize(d.text) }));
  it.each(SYNTAX_CASES.map((c) => [label(c.query), c] as const))(
    'answers %j as written',
    (_, c) => {
      const parsed = parseSearchQuery(c.query);
      if ('error' in c) {
        expect(parsed).toEqual({ ok: false, error: c.error });
        return;
      }
      if (!parsed.ok) throw new Error(parsed.error);
      const hits = docs.filter((d) => matchesDocument(parsed.tree, d.tokens)).map((d) => d.key);
      expect(hits.sort()).toEqual(c.hits);
    },
  );
});
