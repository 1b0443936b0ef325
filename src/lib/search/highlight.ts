/**
 * Marks, in a hit's text, the words the query looked for (`highlightTerms`), with the text's own
 * spelling: folding decides what matches, the original offsets decide what is shown.
 */
import { tokenSpans } from './fold';

export interface HighlightTerm {
  token: string;
  prefix: boolean;
}

export interface HighlightPart {
  text: string;
  match: boolean;
}

function matches(token: string, terms: readonly HighlightTerm[]): boolean {
  return terms.some((t) => (t.prefix ? token.startsWith(t.token) : token === t.token));
}

/**
 * The text cut into parts, `match: true` on each word equal to a term (or starting with a prefix
 * term). The parts joined give back the text; empty parts are left out.
 */
export function highlightText(text: string, terms: readonly HighlightTerm[]): HighlightPart[] {
  const parts: HighlightPart[] = [];
  if (terms.length === 0) return text === '' ? parts : [{ text, match: false }];
  // Matching ranges, merged where two words share an original character (½ → "1", "2").
  const ranges: [number, number][] = [];
  for (const span of tokenSpans(text)) {
    if (!matches(span.token, terms)) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && span.start < last[1]) last[1] = Math.max(last[1], span.end);
    else ranges.push([span.start, span.end]);
  }
  let cursor = 0;
  for (const [start, end] of ranges) {
    if (start > cursor) parts.push({ text: text.slice(cursor, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    cursor = end;
  }
  if (cursor < text.length) parts.push({ text: text.slice(cursor), match: false });
  return parts;
}
