/**
 * The search box's syntax (spec 001 §2 "Search help", Arkindex's): parsed once into a small tree
 * every engine evaluates the same way — FTS5 and PostgreSQL on the server, MiniSearch on the
 * device, `matchesDocument` in the tests.
 *
 * - Words separated by spaces are OR'ed; `OR` or `|` is OR; `AND` or `+` is AND (only upper-case
 *   AND/OR are operators). Operators apply left to right with no precedence: `a + b c` is
 *   `(a + b) | c`; parentheses group.
 * - `-x` is every document without x (x a word, a phrase or a group).
 * - `"a b"` is a phrase: the words consecutive. `word*` is a prefix. A lone `*` or an empty
 *   query is every document.
 * - Each typed word goes through `tokenize`, like the documents: a word that splits into several
 *   (`saint-louis`, `l'abbé`, `body:x`) is the phrase of its parts; a word that folds to nothing
 *   (`%%`, `;`) is dropped, and a query of dropped words only finds nothing.
 * - Anything else is read literally: SQL or full-text syntax typed as text is just words.
 *
 * The parser is a single pass over the query plus a recursive descent over its tokens: linear in
 * the query's length, it never throws and answers errors as the messages the user sees.
 */
import { tokenize } from './fold';

export type SearchNode =
  /** Every document: an empty query or a lone `*`. Only ever the whole tree. */
  | { kind: 'all' }
  /** No document: a query whose words all fold to nothing. Only ever the whole tree. */
  | { kind: 'none' }
  /** One folded word; `prefix` when typed as `word*`: any word starting with it. */
  | { kind: 'term'; token: string; prefix: boolean }
  /** Two or more folded words, consecutive in the document. */
  | { kind: 'phrase'; tokens: string[] }
  /** Two or more children, none of them itself an `and`. */
  | { kind: 'and'; children: SearchNode[] }
  /** Two or more children, none of them itself an `or`. */
  | { kind: 'or'; children: SearchNode[] }
  /** Every document the child does not match; the child is never a `not`. */
  | { kind: 'not'; child: SearchNode };

export const MAX_QUERY_LENGTH = 1000;

/** The messages a refused query answers (shown to the user, and the API's 400 detail). */
export const SEARCH_QUERY_ERRORS = {
  tooLong: `Ensure this field has no more than ${MAX_QUERY_LENGTH} characters.`,
  unclosedQuote: 'The query has a quote that is not closed.',
  unbalancedParentheses: 'The query has unbalanced parentheses.',
} as const;

export type ParseResult = { ok: true; tree: SearchNode } | { ok: false; error: string };

type Lexeme =
  | { t: 'word'; raw: string }
  | { t: 'phrase'; raw: string }
  | { t: 'and' }
  | { t: 'or' }
  | { t: 'not' }
  | { t: '(' }
  | { t: ')' };

/** Characters that end an unquoted word. */
const DELIMITERS = new Set(['(', ')', '"', '|', '+']);
const SPACE = /\s/u;

/** Length in characters (code points), as the API counts it. */
function tooLong(query: string): boolean {
  if (query.length <= MAX_QUERY_LENGTH) return false;
  let count = 0;
  for (const _ of query) if (++count > MAX_QUERY_LENGTH) return true;
  return false;
}

function lex(query: string): { ok: true; lexemes: Lexeme[] } | { ok: false; error: string } {
  const lexemes: Lexeme[] = [];
  let depth = 0;
  let unbalanced = false;
  let i = 0;
  while (i < query.length) {
    const c = query[i] as string;
    if (SPACE.test(c)) {
      i++;
    } else if (c === '(') {
      depth++;
      lexemes.push({ t: '(' });
      i++;
    } else if (c === ')') {
      if (--depth < 0) unbalanced = true;
      lexemes.push({ t: ')' });
      i++;
    } else if (c === '"') {
      const close = query.indexOf('"', i + 1);
      if (close < 0) return { ok: false, error: SEARCH_QUERY_ERRORS.unclosedQuote };
      lexemes.push({ t: 'phrase', raw: query.slice(i + 1, close) });
      i = close + 1;
      // A phrase has no prefix form: a `*` right after its closing quote is ignored.
      while (query[i] === '*') i++;
    } else if (c === '|') {
      lexemes.push({ t: 'or' });
      i++;
    } else if (c === '+') {
      lexemes.push({ t: 'and' });
      i++;
    } else if (c === '-') {
      // Words swallow their inner hyphens, so a hyphen here starts a token: a negation of what
      // follows it directly. A hyphen followed by a space or nothing is ignored.
      const next = query[i + 1];
      if (next !== undefined && !SPACE.test(next)) lexemes.push({ t: 'not' });
      i++;
    } else {
      let j = i + 1;
      while (j < query.length) {
        const d = query[j] as string;
        if (DELIMITERS.has(d) || SPACE.test(d)) break;
        j++;
      }
      const raw = query.slice(i, j);
      if (raw === 'AND') lexemes.push({ t: 'and' });
      else if (raw === 'OR') lexemes.push({ t: 'or' });
      else lexemes.push({ t: 'word', raw });
      i = j;
    }
  }
  if (unbalanced || depth !== 0) {
    return { ok: false, error: SEARCH_QUERY_ERRORS.unbalancedParentheses };
  }
  return { ok: true, lexemes };
}

/** Folded words as a leaf: one word a term, several a phrase, none dropped (null). */
function leaf(tokens: string[], prefix: boolean): SearchNode | null {
  if (tokens.length === 0) return null;
  if (tokens.length === 1) return { kind: 'term', token: tokens[0] as string, prefix };
  // A prefix only applies to a single word: `saint-lou*` is the phrase "saint lou".
  return { kind: 'phrase', tokens };
}

class Parser {
  private pos = 0;
  /** Whether some typed word folded to nothing: an empty result then finds nothing. */
  dropped = false;

  constructor(private readonly lexemes: Lexeme[]) {}

  /** Items up to a `)` or the end, combined left to right; null when there are none. */
  sequence(): SearchNode | null {
    let result: SearchNode | null = null;
    let op: 'and' | 'or' | null = null;
    for (;;) {
      const next = this.lexemes[this.pos];
      if (next === undefined || next.t === ')') return result;
      if (next.t === 'and' || next.t === 'or') {
        // The last operator typed wins; one at the start or the end is ignored.
        op = next.t;
        this.pos++;
        continue;
      }
      const item = this.unary();
      // A dropped item leaves the operator before it for the next one: `a + %% b` is `a + b`.
      if (item === null) continue;
      if (result === null) result = item;
      else {
        const kind = op ?? 'or';
        if (result.kind === kind) result.children.push(item);
        else result = { kind, children: [result, item] };
      }
      op = null;
    }
  }

  /** Negations (`-`) then an item; a negation with no item after it is ignored. */
  private unary(): SearchNode | null {
    let negations = 0;
    while (this.lexemes[this.pos]?.t === 'not') {
      negations++;
      this.pos++;
    }
    const next = this.lexemes[this.pos];
    if (next === undefined || (next.t !== 'word' && next.t !== 'phrase' && next.t !== '(')) {
      return null;
    }
    const item = this.primary();
    if (item === null) return null;
    return negations % 2 === 1 ? { kind: 'not', child: item } : item;
  }

  private primary(): SearchNode | null {
    const next = this.lexemes[this.pos++];
    if (next === undefined) return null;
    if (next.t === '(') {
      const inner = this.sequence();
      this.pos++; // the `)`: the lexer checked they balance
      return inner;
    }
    if (next.t === 'phrase') {
      const node = leaf(tokenize(next.raw), false);
      if (node === null) this.dropped = true;
      return node;
    }
    if (next.t === 'word') {
      if (/^\*+$/u.test(next.raw)) return { kind: 'all' };
      const stem = next.raw.replace(/\*+$/u, '');
      const node = leaf(tokenize(stem), stem.length < next.raw.length);
      if (node === null) this.dropped = true;
      return node;
    }
    return null;
  }
}

function leafKey(node: SearchNode): string | null {
  if (node.kind === 'term') return `${node.prefix ? '*' : '='}${node.token}`;
  if (node.kind === 'phrase') return `"${node.tokens.join(' ')}`;
  return null;
}

/**
 * The normal form every engine receives: nested and/or of the same kind flattened, repeated
 * words and phrases among their children kept once, a single child collapsed, double negations
 * removed, and `all`/`none` folded away so they only ever
 * stand for the whole query.
 */
export function normalizeSearchTree(node: SearchNode): SearchNode {
  switch (node.kind) {
    case 'all':
    case 'none':
    case 'term':
    case 'phrase':
      return node;
    case 'not': {
      const child = normalizeSearchTree(node.child);
      if (child.kind === 'not') return child.child;
      if (child.kind === 'all') return { kind: 'none' };
      if (child.kind === 'none') return { kind: 'all' };
      return { kind: 'not', child };
    }
    case 'and':
    case 'or': {
      // In an AND, `all` changes nothing and `none` wins; in an OR the other way round.
      const neutral = node.kind === 'and' ? 'all' : 'none';
      const absorbing = node.kind === 'and' ? 'none' : 'all';
      const children: SearchNode[] = [];
      const words = new Set<string>();
      const add = (n: SearchNode) => {
        // The same word or phrase twice adds nothing: `a a a` is `a`.
        const key = leafKey(n);
        if (key !== null) {
          if (words.has(key)) return;
          words.add(key);
        }
        children.push(n);
      };
      for (const c of node.children) {
        const n = normalizeSearchTree(c);
        if (n.kind === absorbing) return n;
        if (n.kind === neutral) continue;
        if (n.kind === node.kind) n.children.forEach(add);
        else add(n);
      }
      if (children.length === 0) return { kind: neutral };
      if (children.length === 1) return children[0] as SearchNode;
      return { kind: node.kind, children };
    }
  }
}

/** Parses a search query into its normal tree, or the message to show. Never throws. */
export function parseSearchQuery(query: string): ParseResult {
  if (tooLong(query)) return { ok: false, error: SEARCH_QUERY_ERRORS.tooLong };
  const lexed = lex(query);
  if (!lexed.ok) return lexed;
  const parser = new Parser(lexed.lexemes);
  const tree = parser.sequence();
  if (tree === null) return { ok: true, tree: { kind: parser.dropped ? 'none' : 'all' } };
  return { ok: true, tree: normalizeSearchTree(tree) };
}

/**
 * The folded words (and prefixes) a hit's text should highlight: the terms and phrase words the
 * query looks for, not those under a negation. Each once, in the query's order.
 */
export function highlightTerms(tree: SearchNode): { token: string; prefix: boolean }[] {
  const terms: { token: string; prefix: boolean }[] = [];
  const seen = new Set<string>();
  const add = (token: string, prefix: boolean) => {
    const key = `${prefix ? '*' : '='}${token}`;
    if (seen.has(key)) return;
    seen.add(key);
    terms.push({ token, prefix });
  };
  const walk = (node: SearchNode) => {
    switch (node.kind) {
      case 'term':
        add(node.token, node.prefix);
        break;
      case 'phrase':
        for (const t of node.tokens) add(t, false);
        break;
      case 'and':
      case 'or':
        node.children.forEach(walk);
        break;
      default:
        break;
    }
  };
  walk(tree);
  return terms;
}
