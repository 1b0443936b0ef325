/**
 * The meaning of a search tree, stated once: whether one document (its folded words, in order)
 * matches. The device's offline search and the tests use it; the server's FTS5 and PostgreSQL
 * queries must agree with it on the syntax table (tests/search/syntaxCases.ts).
 */
import type { SearchNode } from './query';

function hasPhrase(words: readonly string[], tokens: readonly string[]): boolean {
  for (let i = 0; i + tokens.length <= words.length; i++) {
    let j = 0;
    while (j < tokens.length && words[i + j] === tokens[j]) j++;
    if (j === tokens.length) return true;
  }
  return false;
}

/** Whether a document whose folded words are `tokens` (from `tokenize`) matches the tree. */
export function matchesDocument(tree: SearchNode, tokens: readonly string[]): boolean {
  switch (tree.kind) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'term':
      return tree.prefix
        ? tokens.some((t) => t.startsWith(tree.token))
        : tokens.includes(tree.token);
    case 'phrase':
      return hasPhrase(tokens, tree.tokens);
    case 'and':
      return tree.children.every((c) => matchesDocument(c, tokens));
    case 'or':
      return tree.children.some((c) => matchesDocument(c, tokens));
    case 'not':
      return !matchesDocument(tree.child, tokens);
  }
}
