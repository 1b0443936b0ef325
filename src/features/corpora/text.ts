import { TRUNCATE, truncate } from '@/lib/truncate';
import type { Corpus } from '@/api/types';

/**
 * A one-line preview of a Markdown description: its first paragraph of prose (a heading only if
 * there is nothing else) with the markup removed, since a card has no room for headings, links
 * or lists.
 */
export function descriptionExcerpt(markdown: string): string {
  const paragraphs = markdown
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);
  const paragraph = paragraphs.find((part) => !/^#{1,6}\s/.test(part)) ?? paragraphs[0] ?? '';
  const plain = paragraph
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return truncate(plain, TRUNCATE.long);
}

/** The caller's role in a project, read from the rights the API reports for them. */
export function roleFromRights(rights: Corpus['rights']): string {
  if (rights.includes('admin')) return 'Admin';
  if (rights.includes('write')) return 'Contributor';
  return 'Guest';
}
