/**
 * What an imported IIIF manifest said beyond its canvases, kept for the folder it became: its
 * ranges, pointing at the pages made of its canvases, and its licence and attribution. The
 * folder's own manifest (manifest.ts) says them again.
 */
import { nowIso } from '../../clock';
import type { Db } from '../../db';
import { chunks, INSERT_CHUNK } from '../../db/chunks';

export interface LanguageText {
  value: string;
  /** null: the source gave no language. */
  language: string | null;
}

export interface ManifestRights {
  /** URIs of the licence or rights statement. */
  license: string[];
  attribution: LanguageText[];
  /** The Presentation 3 requiredStatement's label ("Provider", "Attribution"…). */
  attributionLabel: LanguageText[];
  /** Logo image URLs. */
  logo: string[];
}

export interface StoredRange {
  label: string;
  /** Element ids of the pages it covers, in order. */
  pages: string[];
  ranges: StoredRange[];
}

export interface ImportedManifest {
  sourceId: string;
  version: number;
  structures: StoredRange[];
  rights: ManifestRights;
}

/** A range as read from the manifest: canvas ids, not pages yet. */
export interface SourceRange {
  label: string;
  canvases: string[];
  ranges: SourceRange[];
}

const NO_RIGHTS: ManifestRights = { license: [], attribution: [], attributionLabel: [], logo: [] };

/** The ranges with their canvases turned into pages; ranges left with nothing are dropped. */
export function rangesOnPages(
  ranges: readonly SourceRange[],
  pageOf: (canvasId: string) => string | undefined,
): StoredRange[] {
  return ranges.flatMap((range) => {
    const pages = [...new Set(range.canvases.flatMap((id) => (pageOf(id) ? [pageOf(id)!] : [])))];
    const nested = rangesOnPages(range.ranges, pageOf);
    if (pages.length === 0 && nested.length === 0) return [];
    return [{ label: range.label, pages, ranges: nested }];
  });
}

/** Keeps what the manifest of `folderId` said; nothing is stored when it said nothing more. */
export async function saveImportedManifest(
  db: Db,
  folderId: string,
  manifest: ImportedManifest,
): Promise<void> {
  const { structures, rights } = manifest;
  const saysRights = rights.license.length + rights.attribution.length + rights.logo.length > 0;
  if (structures.length === 0 && !saysRights) return;
  await db
    .insertInto('imported_manifests')
    .values({
      element_id: folderId,
      source_id: manifest.sourceId,
      version: manifest.version,
      structures: JSON.stringify(structures),
      rights: JSON.stringify(rights),
      created: nowIso(),
    })
    .execute();
}

/** The kept manifests of these folders, by folder id. */
export async function importedManifests(
  db: Db,
  folderIds: readonly string[],
): Promise<Map<string, ImportedManifest>> {
  const found = new Map<string, ImportedManifest>();
  for (const part of chunks([...folderIds], INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('imported_manifests')
      .selectAll()
      .where('element_id', 'in', part)
      .execute();
    for (const row of rows) {
      found.set(row.element_id, {
        sourceId: row.source_id,
        version: row.version,
        structures: parsed<StoredRange[]>(row.structures, []),
        rights: { ...NO_RIGHTS, ...parsed<Partial<ManifestRights>>(row.rights, {}) },
      });
    }
  }
  return found;
}

function parsed<T>(json: string, fallback: T): T {
  try {
    return (JSON.parse(json) as T | null) ?? fallback;
  } catch {
    return fallback;
  }
}
