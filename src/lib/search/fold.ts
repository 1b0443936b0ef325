/**
 * How search reads text (issue 16): one folding and one word splitting for the documents and the
 * query, in the browser, the offline worker and the server, so a word typed in the search box
 * finds the same words everywhere.
 *
 * Folding: NFKD (ligatures and compatibility forms spelled out: ﬁ → fi, ſ → s), lower case,
 * every combining mark dropped (é → e, q̃ → q, p͛ → p: a word typed with or without its marks
 * finds it), and the letters NFKD leaves whole mapped to their plain spelling (ß → ss, æ → ae,
 * œ → oe, ø → o, ł → l, đ → d, ı → i, ꝛ → r …). Private-Use-Area characters (MUFI's medieval
 * characters such as U+E5DC or U+F1AC) are kept as they are: they have no plain spelling.
 *
 * Words: maximal runs of letters, digits and private-use characters after folding; everything
 * else (spaces, punctuation, hyphens, apostrophes, symbols) separates words.
 *
 * Pure ES2022: no DOM, no Node, no imports outside this folder (the server runs it too).
 */

/** Letters NFKD keeps as one code point, with the plain spelling search compares them by. */
const LETTER_MAP: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ȷ: 'j',
  ħ: 'h',
  ŧ: 't',
  ƀ: 'b',
  ɨ: 'i',
  ʉ: 'u',
  ꝛ: 'r',
  ꞅ: 's',
  ſ: 's',
  ς: 'σ',
};

const MAPPED = new RegExp(`[${Object.keys(LETTER_MAP).join('')}]`, 'gu');
const MARKS = /\p{M}/gu;
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
const ASCII_WORD = /[a-z0-9]+/g;

function mapLetters(folded: string): string {
  return folded.replace(MAPPED, (c) => LETTER_MAP[c] ?? c);
}

const NON_ASCII = /[^\0-\x7f]/u;

/** The folded form of a text: see the file comment. Its length may differ from the text's. */
export function foldText(text: string): string {
  // Most text is plain ASCII, for which folding is lower-casing (the indexer folds every text).
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  // NFKD again after lower-casing: a few capitals lower-case to letters NFKD decomposes.
  return mapLetters(text.normalize('NFKD').toLowerCase().normalize('NFKD').replace(MARKS, ''));
}

/** The folded words of a text, in order. */
export function tokenize(text: string): string[] {
  const folded = foldText(text);
  // The same words, found faster when only ASCII letters and digits can make them.
  return (NON_ASCII.test(folded) ? folded.match(WORD) : folded.match(ASCII_WORD)) ?? [];
}

export interface TokenSpan {
  /** The folded word. */
  token: string;
  /** Where the word starts in the original (unfolded) text, in UTF-16 code units. */
  start: number;
  /** Where it ends (exclusive), including the combining marks that follow its last letter. */
  end: number;
}

/** Folding of one code point, cached: documents repeat the same few hundred characters. */
const CHAR_CACHE = new Map<string, string>();
function foldChar(c: string): string {
  if (c.length === 1 && c < '\x80') return c.toLowerCase();
  let folded = CHAR_CACHE.get(c);
  if (folded === undefined) {
    folded = foldText(c);
    if (CHAR_CACHE.size < 10_000) CHAR_CACHE.set(c, folded);
  }
  return folded;
}

/**
 * The folded words of a text with their [start, end) offsets in the original text, for
 * highlighting: folding may change lengths (ß → ss, ﬁ → fi, marks dropped), so each folded
 * character remembers the original code point it came from.
 */
export function tokenSpans(text: string): TokenSpan[] {
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  let offset = 0;
  for (const c of text) {
    const next = offset + c.length;
    const f = foldChar(c);
    if (f === '') {
      // A dropped mark belongs to the letter before it, so highlighting keeps "q̃" whole.
      const last = to.length - 1;
      if (last >= 0 && to[last] === offset) {
        for (let i = last; i >= 0 && to[i] === offset; i--) to[i] = next;
      }
    } else {
      folded += f;
      for (let i = 0; i < f.length; i++) {
        from.push(offset);
        to.push(next);
      }
    }
    offset = next;
  }
  const spans: TokenSpan[] = [];
  for (const m of folded.matchAll(WORD)) {
    const first = m.index;
    const last = first + m[0].length - 1;
    spans.push({ token: m[0], start: from[first] ?? 0, end: to[last] ?? 0 });
  }
  return spans;
}
