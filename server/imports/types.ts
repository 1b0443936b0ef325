import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { ImportReport } from './report';

/** Colours for region types an import adds, so neighbouring zones of new types tell apart. */
const NEW_TYPE_COLORS = [
  'e6194b',
  '3cb44b',
  '4363d8',
  'f58231',
  '911eb4',
  '42d4f4',
  'f032e6',
  '9a6324',
];

/**
 * A type's display name from the label in the XML: 'page-number' reads 'Page number'; a
 * CamelCase SegmOnto name (MainZone) is kept as transcribers know it.
 */
export function typeDisplayName(label: string): string {
  const spaced = label.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : '';
}

/** The project's element types by slug, creating the ones an import needs on first use. */
export class ImportTypes {
  private bySlug: Map<string, string> | null = null;

  constructor(
    private readonly db: Db,
    private readonly corpusId: string,
    private readonly report: ImportReport,
  ) {}

  async id(slug: string, displayName: string, folder = false): Promise<string> {
    if (!this.bySlug) {
      const rows = await this.db
        .selectFrom('element_types')
        .select(['id', 'slug'])
        .where('corpus_id', '=', this.corpusId)
        .execute();
      this.bySlug = new Map(rows.map((row) => [row.slug, row.id]));
    }
    const known = this.bySlug.get(slug);
    if (known) return known;
    const id = randomUUID();
    await this.db
      .insertInto('element_types')
      .values({
        id,
        corpus_id: this.corpusId,
        slug,
        display_name: typeDisplayName(displayName) || slug,
        folder: folder ? 1 : 0,
        color: NEW_TYPE_COLORS[this.report.types_created.length % NEW_TYPE_COLORS.length]!,
        indexable: 1,
      })
      .execute();
    this.bySlug.set(slug, id);
    this.report.types_created.push(slug);
    return id;
  }
}
