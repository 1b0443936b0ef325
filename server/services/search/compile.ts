/**
 * A parsed search query (src/lib/search/query.ts) turned into each engine's query: an FTS5
 * MATCH expression on SQLite, a tsquery on PostgreSQL. User text only ever reaches SQL as bound
 * parameters: the FTS5 string is made of double-quoted tokens, the tsquery text of quoted
 * lexemes, and each is passed as a parameter (the tsquery one cast `::tsquery`, never through
 * to_tsquery, whose parser would split words differently from the indexer's tokenize).
 *
 * The compiled condition reads the alias `d` of search_documents. Unary NOT and `all` have no
 * FTS5 form, so on SQLite the tree becomes SQL boolean logic over `d.id IN (rowids of a MATCH)`
 * wherever a subtree cannot be one MATCH; PostgreSQL's tsquery has `!`, so one `@@` serves.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../../db';
import type { SearchNode } from '../../../src/lib/search/query';

export type { SearchNode };

/** Deeper FTS5 expressions overflow its parser's stack (about 100 levels): split them in SQL. */
const FTS_MAX_DEPTH = 30;
/** Beyond this the SQL form would be too deep for the engines; 1000 characters nest at most ~500. */
export const MAX_TREE_DEPTH = 600;

export interface CompiledQuery {
  /** Rows of `search_documents d` (joined as `from` says) the query matches. */
  where: RawBuilder<SqlBool>;
  /**
   * SQLite, when the whole query is one MATCH: join search_fts on d.id, so bm25 and the match
   * come from one scan. Otherwise the query is a condition on d alone.
   */
  ftsJoin: string | null;
  /** Relevance, larger is better, or null when the query has no word to rank by. */
  score: RawBuilder<number> | null;
  /** SQLite only: the MATCH of every positive word, whose bm25 ranks a mixed query. */
  rankMatch: string | null;
}

/** How deep a tree nests: the engines' parsers refuse very deep expressions. */
export function treeDepth(node: SearchNode): number {
  switch (node.kind) {
    case 'and':
    case 'or':
      return 1 + Math.max(0, ...node.children.map(treeDepth));
    case 'not':
      return 1 + treeDepth(node.child);
    default:
      return 1;
  }
}

/**
 * `all` and `none` folded away: what remains is `all`, `none`, or a tree of words, phrases,
 * and, or and not only.
 */
export function simplify(node: SearchNode): SearchNode {
  switch (node.kind) {
    case 'not': {
      const child = simplify(node.child);
      if (child.kind === 'all') return { kind: 'none' };
      if (child.kind === 'none') return { kind: 'all' };
      if (child.kind === 'not') return child.child;
      return { kind: 'not', child };
    }
    case 'and':
    case 'or': {
      const absorbing = node.kind === 'and' ? 'none' : 'all';
      const neutral = node.kind === 'and' ? 'all' : 'none';
      const children: SearchNode[] = [];
      for (const raw of node.children) {
        const child = simplify(raw);
        if (child.kind === absorbing) return child;
        if (child.kind === neutral) continue;
        if (child.kind === node.kind) children.push(...child.children);
        else children.push(child);
      }
      if (children.length === 0) return { kind: neutral };
      if (children.length === 1) return children[0]!;
      return { kind: node.kind, children };
    }
    case 'phrase':
      if (node.tokens.length === 0) return { kind: 'none' };
      if (node.tokens.length === 1) return { kind: 'term', token: node.tokens[0]!, prefix: false };
      return node;
    default:
      return node;
  }
}

/** The word and phrase leaves not under a NOT: what relevance ranks by. */
export function positiveLeaves(node: SearchNode, negated = false): SearchNode[] {
  switch (node.kind) {
    case 'term':
    case 'phrase':
      return negated ? [] : [node];
    case 'and':
    case 'or':
      return node.children.flatMap((child) => positiveLeaves(child, negated));
    case 'not':
      return positiveLeaves(node.child, !negated);
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// SQLite FTS5

/** A double-quoted FTS5 string: inside one, only `"` is special, and it is doubled. */
function ftsString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

interface FtsExpression {
  text: string;
  depth: number;
}

/**
 * The FTS5 MATCH text of a subtree, or null when it has no FTS5 form: a NOT that is not the
 * right side of an AND with something positive, or too deep a nesting.
 */
export function ftsExpression(node: SearchNode): FtsExpression | null {
  switch (node.kind) {
    case 'term':
      return { text: ftsString(node.token) + (node.prefix ? '*' : ''), depth: 1 };
    case 'phrase':
      return { text: ftsString(node.tokens.join(' ')), depth: 1 };
    case 'or': {
      const parts = node.children.map(ftsExpression);
      if (parts.some((part) => part === null)) return null;
      return group(parts as FtsExpression[], ' OR ');
    }
    case 'and': {
      const positives: FtsExpression[] = [];
      const negatives: FtsExpression[] = [];
      for (const child of node.children) {
        const part = child.kind === 'not' ? ftsExpression(child.child) : ftsExpression(child);
        if (!part) return null;
        (child.kind === 'not' ? negatives : positives).push(part);
      }
      // FTS5's NOT is binary (a NOT b): a conjunction of negations alone has no form.
      if (positives.length === 0) return null;
      const positive = group(positives, ' AND ');
      if (!positive) return null;
      if (negatives.length === 0) return positive;
      const negative = group(negatives, ' OR ');
      if (!negative) return null;
      const depth = Math.max(positive.depth, negative.depth) + 1;
      if (depth > FTS_MAX_DEPTH) return null;
      return { text: `(${positive.text}) NOT (${negative.text})`, depth };
    }
    default:
      return null;
  }
}

function group(parts: FtsExpression[], operator: string): FtsExpression | null {
  if (parts.length === 1) return parts[0]!;
  const depth = 1 + Math.max(...parts.map((part) => part.depth));
  if (depth > FTS_MAX_DEPTH) return null;
  return { text: parts.map((part) => `(${part.text})`).join(operator), depth };
}

function sqliteCondition(node: SearchNode): RawBuilder<SqlBool> {
  if (node.kind === 'all') return sql<SqlBool>`1 = 1`;
  if (node.kind === 'none') return sql<SqlBool>`1 = 0`;
  const fts = ftsExpression(node);
  if (fts) {
    return sql<SqlBool>`d.id in (select rowid from search_fts where search_fts match ${fts.text})`;
  }
  switch (node.kind) {
    case 'not':
      return sql<SqlBool>`not (${sqliteCondition(node.child)})`;
    case 'and':
    case 'or': {
      const joiner = node.kind === 'and' ? sql` and ` : sql` or `;
      const parts = node.children.map((child) => sql`(${sqliteCondition(child)})`);
      return sql<SqlBool>`(${sql.join(parts, joiner)})`;
    }
    default:
      // Words and phrases always have an FTS5 form.
      throw new Error(`no SQLite form for ${node.kind}`);
  }
}

function compileSqlite(tree: SearchNode): CompiledQuery {
  const leaves = positiveLeaves(tree);
  const rankMatch = leaves.length
    ? leaves.map((leaf) => `(${ftsExpression(leaf)!.text})`).join(' OR ')
    : null;
  const whole = tree.kind === 'all' || tree.kind === 'none' ? null : ftsExpression(tree);
  if (whole) {
    return {
      where: sql<SqlBool>`search_fts match ${whole.text}`,
      ftsJoin: 'search_fts',
      // bm25 is smaller for better matches.
      score: sql<number>`-bm25(search_fts)`,
      rankMatch: null,
    };
  }
  return {
    where: sqliteCondition(tree),
    ftsJoin: null,
    score: rankMatch ? sql<number>`coalesce(-rank_match.score, -1e308)` : null,
    rankMatch,
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL tsquery

/** A quoted tsquery lexeme: `'` doubled and `\` escaped, so any text stays one lexeme. */
function lexeme(token: string): string {
  return `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The tsquery text of a tree without `all` and `none`. */
export function tsqueryText(node: SearchNode): string {
  switch (node.kind) {
    case 'term':
      return lexeme(node.token) + (node.prefix ? ':*' : '');
    case 'phrase':
      return node.tokens.map(lexeme).join(' <-> ');
    case 'and':
      return node.children.map((child) => `(${tsqueryText(child)})`).join(' & ');
    case 'or':
      return node.children.map((child) => `(${tsqueryText(child)})`).join(' | ');
    case 'not':
      return `!(${tsqueryText(node.child)})`;
    default:
      throw new Error(`no tsquery form for ${node.kind}`);
  }
}

/** PostgreSQL refuses longer lexemes (a 500 otherwise); the indexer leaves such words out. */
const MAX_LEXEME_BYTES = 2046;
const encoder = new TextEncoder();
const tooLong = (token: string) => encoder.encode(token).length > MAX_LEXEME_BYTES;

/** Words no tsvector can hold match nothing, rather than failing the tsquery cast. */
function withoutUnindexable(node: SearchNode): SearchNode {
  switch (node.kind) {
    case 'term':
      return tooLong(node.token) ? { kind: 'none' } : node;
    case 'phrase':
      return node.tokens.some(tooLong) ? { kind: 'none' } : node;
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map(withoutUnindexable) };
    case 'not':
      return { kind: 'not', child: withoutUnindexable(node.child) };
    default:
      return node;
  }
}

function compilePostgres(tree: SearchNode): CompiledQuery {
  const leaves = positiveLeaves(tree);
  const rank = leaves.length ? leaves.map((leaf) => `(${tsqueryText(leaf)})`).join(' | ') : null;
  const where =
    tree.kind === 'all'
      ? sql<SqlBool>`true`
      : tree.kind === 'none'
        ? sql<SqlBool>`false`
        : sql<SqlBool>`d.tsv @@ ${tsqueryText(tree)}::tsquery`;
  return {
    where,
    ftsJoin: null,
    score: rank ? sql<number>`ts_rank(d.tsv, ${rank}::tsquery)` : null,
    rankMatch: null,
  };
}

/** The query tree (already parsed) as this engine's condition on search_documents `d`. */
export function compileSearch(dialect: Dialect, tree: SearchNode): CompiledQuery {
  const simple = simplify(tree);
  return dialect === 'postgres'
    ? compilePostgres(simplify(withoutUnindexable(simple)))
    : compileSqlite(simple);
}
