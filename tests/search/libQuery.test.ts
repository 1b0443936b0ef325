import { describe, expect, it } from 'vitest';
import { highlightText } from '../../src/lib/search/highlight';
import {
  MAX_QUERY_LENGTH,
  SEARCH_QUERY_ERRORS,
  highlightTerms,
  parseSearchQuery,
  type SearchNode,
} from '../../src/lib/search/query';

const term = (token: string, prefix = false): SearchNode => ({ kind: 'term', token, prefix });
const tree = (query: string) => {
  const parsed = parseSearchQuery(query);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.tree;
};

describe('parseSearchQuery', () => {
  it('combines left to right with no precedence, OR by default', () => {
    expect(tree('a b c')).toEqual({ kind: 'or', children: [term('a'), term('b'), term('c')] });
    expect(tree('a + b c')).toEqual({
      kind: 'or',
      children: [{ kind: 'and', children: [term('a'), term('b')] }, term('c')],
    });
    expect(tree('a b AND c')).toEqual({
      kind: 'and',
      children: [{ kind: 'or', children: [term('a'), term('b')] }, term('c')],
    });
    expect(tree('a AND b + c')).toEqual({
      kind: 'and',
      children: [term('a'), term('b'), term('c')],
    });
  });

  it('flattens groups of the same kind and collapses single children', () => {
    expect(tree('(a | (b c)) d')).toEqual({
      kind: 'or',
      children: [term('a'), term('b'), term('c'), term('d')],
    });
    expect(tree('((a))')).toEqual(term('a'));
    expect(tree('a + (b + c)')).toEqual({
      kind: 'and',
      children: [term('a'), term('b'), term('c')],
    });
  });

  it('reads only upper-case AND and OR as operators', () => {
    expect(tree('a and b')).toEqual({ kind: 'or', children: [term('a'), term('and'), term('b')] });
    expect(tree('a Or b')).toEqual({ kind: 'or', children: [term('a'), term('or'), term('b')] });
  });

  it('negates the word, phrase or group right after a hyphen', () => {
    expect(tree('-a')).toEqual({ kind: 'not', child: term('a') });
    expect(tree('a -c')).toEqual({
      kind: 'or',
      children: [term('a'), { kind: 'not', child: term('c') }],
    });
    expect(tree('-"a b"')).toEqual({ kind: 'not', child: { kind: 'phrase', tokens: ['a', 'b'] } });
    expect(tree('-(a b)')).toEqual({
      kind: 'not',
      child: { kind: 'or', children: [term('a'), term('b')] },
    });
    expect(tree('---a')).toEqual({ kind: 'not', child: term('a') });
    expect(tree('- a')).toEqual(term('a'));
  });

  it('reads hyphenated and split words as phrases, prefixes only at a word’s end', () => {
    expect(tree('saint-louis')).toEqual({ kind: 'phrase', tokens: ['saint', 'louis'] });
    expect(tree("l'abbé")).toEqual({ kind: 'phrase', tokens: ['l', 'abbe'] });
    expect(tree('Verl*')).toEqual(term('verl', true));
    expect(tree('a*b')).toEqual({ kind: 'phrase', tokens: ['a', 'b'] });
    expect(tree('saint-lou*')).toEqual({ kind: 'phrase', tokens: ['saint', 'lou'] });
    expect(tree('"verl*"')).toEqual(term('verl'));
  });

  it('stands for every document or none only as the whole query', () => {
    for (const q of ['', '  ', '*', '**', '-', 'AND', 'OR |', '()', '- +']) {
      expect(tree(q), q).toEqual({ kind: 'all' });
    }
    for (const q of ['%%', '"%%"', '""', ';', '{', '(%%)', '-*']) {
      expect(tree(q), q).toEqual({ kind: 'none' });
    }
    expect(tree('a *')).toEqual({ kind: 'all' });
    expect(tree('a + *')).toEqual(term('a'));
    expect(tree('a + %% b')).toEqual({ kind: 'and', children: [term('a'), term('b')] });
    expect(tree('-%% a')).toEqual(term('a'));
  });

  it('refuses unclosed quotes, unbalanced parentheses and long queries', () => {
    expect(parseSearchQuery('"a')).toEqual({ ok: false, error: SEARCH_QUERY_ERRORS.unclosedQuote });
    expect(parseSearchQuery('(a')).toEqual({
      ok: false,
      error: SEARCH_QUERY_ERRORS.unbalancedParentheses,
    });
    expect(parseSearchQuery('"(" a')).toEqual({ ok: true, tree: term('a') });
    expect(parseSearchQuery('x'.repeat(MAX_QUERY_LENGTH + 1))).toEqual({
      ok: false,
      error: 'Ensure this field has no more than 1000 characters.',
    });
    // Characters, not UTF-16 units: 1000 letters outside the BMP are allowed.
    expect(parseSearchQuery('𝔄'.repeat(MAX_QUERY_LENGTH)).ok).toBe(true);
    expect(parseSearchQuery('𝔄'.repeat(MAX_QUERY_LENGTH + 1)).ok).toBe(false);
  });

  it('answers hostile queries at once and never throws', () => {
    const hostile = [
      '('.repeat(1000),
      '"'.repeat(1000),
      '-'.repeat(1000),
      '('.repeat(500) + ')'.repeat(500),
      '-('.repeat(333) + ')'.repeat(333),
      '+'.repeat(1000),
      '*'.repeat(1000),
      'a '.repeat(500),
      'a+'.repeat(500),
      '\\'.repeat(1000),
      'x'.repeat(10_000_000),
    ];
    const started = Date.now();
    for (const q of hostile) expect(() => parseSearchQuery(q)).not.toThrow();
    expect(Date.now() - started).toBeLessThan(500);
    expect(parseSearchQuery('('.repeat(499) + 'a' + ')'.repeat(499))).toEqual({
      ok: true,
      tree: term('a'),
    });
  });
});

describe('highlightTerms', () => {
  it('lists the positive words and prefixes once, not the negated ones', () => {
    expect(highlightTerms(tree('verl* + -einsam "saint louis" louis'))).toEqual([
      { token: 'verl', prefix: true },
      { token: 'saint', prefix: false },
      { token: 'louis', prefix: false },
    ]);
    expect(highlightTerms(tree('*'))).toEqual([]);
    expect(highlightTerms(tree('-a'))).toEqual([]);
  });
});

describe('highlightText', () => {
  it('marks matching words with the text’s own spelling', () => {
    const terms = highlightTerms(tree('menschheit gross verl*'));
    expect(highlightText('Die Menſchheit iſt groß, verlaſſen.', terms)).toEqual([
      { text: 'Die ', match: false },
      { text: 'Menſchheit', match: true },
      { text: ' iſt ', match: false },
      { text: 'groß', match: true },
      { text: ', ', match: false },
      { text: 'verlaſſen', match: true },
      { text: '.', match: false },
    ]);
  });

  it('keeps combining marks with their word and gives back the whole text', () => {
    const text = 'luy demanda q\u0303lle chose';
    const parts = highlightText(text, highlightTerms(tree('qlle')));
    expect(parts).toEqual([
      { text: 'luy demanda ', match: false },
      { text: 'q\u0303lle', match: true },
      { text: ' chose', match: false },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(text);
  });

  it('marks nothing without terms, and joins words sharing a character', () => {
    expect(highlightText('abc', [])).toEqual([{ text: 'abc', match: false }]);
    expect(highlightText('', [])).toEqual([]);
    expect(highlightText('x ½', highlightTerms(tree('1 2')))).toEqual([
      { text: 'x ', match: false },
      { text: '½', match: true },
    ]);
    expect(highlightText('Saint-Louis', highlightTerms(tree('"saint louis"')))).toEqual([
      { text: 'Saint', match: true },
      { text: '-', match: false },
      { text: 'Louis', match: true },
    ]);
  });
});

describe('normalisation', () => {
  it('keeps a repeated word or phrase once', () => {
    expect(tree('a A a')).toEqual(term('a'));
    expect(tree('a '.repeat(500))).toEqual(term('a'));
    expect(tree('a a* "b c" b-c')).toEqual({
      kind: 'or',
      children: [term('a'), term('a', true), { kind: 'phrase', tokens: ['b', 'c'] }],
    });
    expect(tree('a + (b | a)')).toEqual({
      kind: 'and',
      children: [term('a'), { kind: 'or', children: [term('b'), term('a')] }],
    });
  });
});
