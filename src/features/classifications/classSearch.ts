/** Spec 001 §5 "Classification": a class search keeps at most 10 distinct words. */
export const MAX_SEARCH_WORDS = 10;

export function searchWords(search: string): string[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

/** The classes whose name holds every word of the search, in name order. */
export function matchClasses<T extends { name: string }>(
  classes: readonly T[],
  search: string,
): T[] {
  const words = searchWords(search);
  return classes
    .filter((mlClass) => words.every((word) => mlClass.name.toLowerCase().includes(word)))
    .sort((a, b) => a.name.localeCompare(b.name));
}
