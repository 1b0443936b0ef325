/**
 * The names of the files in a PAGE XML or ALTO archive: one per page, named by the page; pages
 * whose names clash go in a folder named by their parent, and a clash left after that gets a
 * number, so no file overwrites another.
 */

/** Characters no file name may hold become '_'; an empty name falls back to the given one. */
export function safeName(name: string, fallback: string): string {
  const cleaned = [...name]
    .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim()
    .replace(/^\.+/, '_');
  return cleaned || fallback;
}

export interface NamedPage {
  id: string;
  name: string;
  parentName: string | null;
}

export function archiveNames(pages: readonly NamedPage[], extension: string): string[] {
  const base = pages.map((page) => safeName(page.name, page.id));
  const count = new Map<string, number>();
  for (const name of base) count.set(name, (count.get(name) ?? 0) + 1);
  const taken = new Set<string>();
  return pages.map((page, index) => {
    const name = base[index]!;
    const stem =
      count.get(name)! > 1 && page.parentName !== null
        ? `${safeName(page.parentName, 'folder')}/${name}`
        : name;
    let candidate = `${stem}${extension}`;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++)
      candidate = `${stem} (${n})${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
