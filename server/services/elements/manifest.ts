/**
 * RetrieveFolderManifest: a IIIF Presentation 2.1 manifest of a folder, so any IIIF viewer
 * (Mirador, the Universal Viewer) can page through it.
 *
 * - The canvases are the pages below the folder, depth first in the folders' order: a child
 *   on an image is a canvas, a sub-folder adds its own pages where it stands.
 * - `structures` has a range per sub-folder (nested as the folders are, each covering every
 *   page below it) and the ranges of an imported manifest (importedManifests.ts), under a top
 *   range for the folder itself; none when the folder has neither.
 * - An imported manifest's licence, attribution and logos are said again: on the manifest for
 *   the folder itself, on its range for a sub-folder.
 * - At most MAX_CANVASES canvases and MAX_SUBFOLDERS sub-folders: the rest is left out and the
 *   manifest's description says so (each sub-folder has its own manifest).
 */
import type { Db } from '../../db';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import type { Element, Image } from '../../db/schema';
import { IIIF_CONTEXT, IIIF_PROFILE } from '../../iiif/info';
import { imageJson } from '../images';
import {
  importedManifests,
  type LanguageText,
  type ManifestRights,
  type StoredRange,
} from './importedManifests';

export const PRESENTATION_CONTEXT = 'http://iiif.io/api/presentation/2/context.json';
/**
 * Images on other IIIF servers: Folia reads regions and sizes of them (level 1), the least it
 * asks of any image server; their own info.json says more. Folia's own images are level 2.
 */
const REMOTE_IMAGE_PROFILE = 'http://iiif.io/api/image/2/level1.json';

/** Canvases in one manifest at most: Mirador opens 2,000 pages in a few seconds. */
export const MAX_CANVASES = 2000;
/** Sub-folders walked at most (one query each). */
export const MAX_SUBFOLDERS = 500;

interface Child {
  id: string;
  name: string;
  image_id: string | null;
  folder: number;
}

/** A folder in the manifest: its pages' element ids in order, all levels below it included. */
interface FolderNode {
  id: string;
  name: string;
  pages: string[];
  folders: FolderNode[];
}

class Walk {
  /** Page element id → its image id, in canvas order. */
  readonly canvases = new Map<string, string>();
  readonly names = new Map<string, string>();
  private readonly visited = new Set<string>();
  subfolders = 0;
  truncated = false;

  constructor(
    private readonly db: Db,
    private readonly corpusId: string,
  ) {}

  private async children(folderId: string): Promise<{ rows: Child[]; limit: number }> {
    const room = MAX_CANVASES - this.canvases.size + (MAX_SUBFOLDERS - this.subfolders);
    const limit = room + 1;
    const rows = await this.db
      .selectFrom('element_links')
      .innerJoin('elements', 'elements.id', 'element_links.child_id')
      .innerJoin('element_types', 'element_types.id', 'elements.type_id')
      .select(['elements.id', 'elements.name', 'elements.image_id', 'element_types.folder'])
      .where('element_links.parent_id', '=', folderId)
      .where('elements.corpus_id', '=', this.corpusId)
      .where((eb) =>
        eb.or([eb('elements.image_id', 'is not', null), eb('element_types.folder', '=', 1)]),
      )
      .orderBy('element_links.position')
      .orderBy('elements.id')
      // Every row takes a canvas or a sub-folder, or is past the limits: one more tells.
      .limit(limit)
      .execute();
    return { rows, limit };
  }

  async folder(id: string, name: string): Promise<FolderNode> {
    this.visited.add(id);
    const node: FolderNode = { id, name, pages: [], folders: [] };
    const { rows, limit } = await this.children(id);
    for (const child of rows) {
      if (this.truncated) break;
      if (child.image_id !== null) {
        if (!this.canvases.has(child.id)) {
          if (this.canvases.size >= MAX_CANVASES) {
            this.truncated = true;
            break;
          }
          this.canvases.set(child.id, child.image_id);
          this.names.set(child.id, child.name);
        }
        node.pages.push(child.id);
      } else if (!this.visited.has(child.id)) {
        if (this.subfolders >= MAX_SUBFOLDERS) {
          this.truncated = true;
          continue;
        }
        this.subfolders += 1;
        const sub = await this.folder(child.id, child.name);
        node.folders.push(sub);
        node.pages.push(...sub.pages);
      }
    }
    // A page met twice (it has two parents) took a row but no room: more may follow unseen.
    if (rows.length === limit) this.truncated = true;
    node.pages = [...new Set(node.pages)];
    return node;
  }
}

async function imagesById(db: Db, ids: readonly string[]): Promise<Map<string, Image>> {
  const images = new Map<string, Image>();
  for (const part of chunks([...new Set(ids)], INSERT_CHUNK)) {
    const rows = await db.selectFrom('images').selectAll().where('id', 'in', part).execute();
    for (const row of rows) images.set(row.id, row);
  }
  return images;
}

/** Presentation 2 language values: a plain string when there is one without language. */
function languageValue(texts: readonly LanguageText[]): unknown {
  const values = texts.map(({ value, language }) =>
    language === null ? value : { '@value': value, '@language': language },
  );
  return values.length === 1 ? values[0] : values;
}

/** license, attribution and logo as Presentation 2.1 writes them; {} when there are none. */
function rightsProperties(rights: ManifestRights | undefined): Record<string, unknown> {
  if (!rights) return {};
  const one = (values: string[]) => (values.length === 1 ? values[0] : values);
  return {
    ...(rights.license.length ? { license: one(rights.license) } : {}),
    ...(rights.attribution.length ? { attribution: languageValue(rights.attribution) } : {}),
    ...(rights.logo.length ? { logo: one(rights.logo) } : {}),
  };
}

export async function folderManifest(
  db: Db,
  folder: Element,
  manifestUrl: string,
  origin: string,
): Promise<Record<string, unknown>> {
  const walk = new Walk(db, folder.corpus_id);
  const root = await walk.folder(folder.id, folder.name);
  const base = manifestUrl.replace(/manifest\/?$/, '');
  const canvasId = (pageId: string) => `${base}canvas/${pageId}/`;

  const folderIds: string[] = [];
  const collect = (node: FolderNode) => {
    folderIds.push(node.id);
    node.folders.forEach(collect);
  };
  collect(root);
  const [images, imported] = await Promise.all([
    imagesById(db, [...walk.canvases.values()]),
    importedManifests(db, folderIds),
  ]);

  /** The pages that are canvases: ranges name no others. */
  const shown = new Set<string>();
  const canvases = [...walk.canvases].flatMap(([pageId, imageId]) => {
    const image = images.get(imageId);
    if (!image) return [];
    shown.add(pageId);
    const { url, width, height } = imageJson(image, origin);
    const id = canvasId(pageId);
    return [
      {
        '@id': id,
        '@type': 'sc:Canvas',
        label: walk.names.get(pageId) ?? '',
        width,
        height,
        images: [
          {
            '@type': 'oa:Annotation',
            motivation: 'sc:painting',
            on: id,
            resource: {
              '@id': `${url}/full/full/0/default.jpg`,
              '@type': 'dctypes:Image',
              format: 'image/jpeg',
              width,
              height,
              service: {
                '@context': IIIF_CONTEXT,
                '@id': url,
                profile: image.url ? REMOTE_IMAGE_PROFILE : IIIF_PROFILE,
              },
            },
          },
        ],
      },
    ];
  });

  // Presentation 2.1 lists ranges flat, each naming its sub-ranges by id.
  const ranges: Record<string, unknown>[] = [];
  const importedRanges = (
    owner: string,
    stored: readonly StoredRange[],
    prefix: string,
  ): string[] =>
    stored.flatMap((range, index): string[] => {
      const id = `${base}range/${owner}/${prefix}${index + 1}/`;
      const pages = range.pages.filter((page) => shown.has(page));
      // A range must have a label: an unnamed one is called by its place ("2.1").
      const label = range.label || `${prefix}${index + 1}`;
      const entry: Record<string, unknown> = { '@id': id, '@type': 'sc:Range', label };
      ranges.push(entry);
      const nested = importedRanges(owner, range.ranges, `${prefix}${index + 1}.`);
      if (pages.length === 0 && nested.length === 0) {
        ranges.splice(ranges.indexOf(entry), 1);
        return [];
      }
      if (pages.length) entry['canvases'] = pages.map(canvasId);
      if (nested.length) entry['ranges'] = nested;
      return [id];
    });
  const folderRange = (node: FolderNode, top: boolean): string[] => {
    const id = `${base}range/${node.id}/`;
    const entry: Record<string, unknown> = {
      '@id': id,
      '@type': 'sc:Range',
      label: node.name,
      ...(top ? { viewingHint: 'top' } : rightsProperties(imported.get(node.id)?.rights)),
    };
    ranges.push(entry);
    const pages = node.pages.filter((page) => shown.has(page));
    const nested = [
      ...node.folders.flatMap((sub) => folderRange(sub, false)),
      ...importedRanges(node.id, imported.get(node.id)?.structures ?? [], ''),
    ];
    if (pages.length === 0 && nested.length === 0) {
      ranges.splice(ranges.indexOf(entry), 1);
      return [];
    }
    if (pages.length) entry['canvases'] = pages.map(canvasId);
    if (nested.length) entry['ranges'] = nested;
    return [id];
  };
  folderRange(root, true);
  // A top range alone, over the folder's own pages, would say nothing.
  const structures = ranges.length > 1 ? ranges : [];

  return {
    '@context': PRESENTATION_CONTEXT,
    '@id': manifestUrl,
    '@type': 'sc:Manifest',
    label: folder.name,
    ...(walk.truncated
      ? {
          description: `Only the first ${canvases.length} pages below this folder are shown here; each sub-folder has a manifest of its own.`,
        }
      : {}),
    ...rightsProperties(imported.get(folder.id)?.rights),
    sequences: [{ '@id': `${base}sequence/`, '@type': 'sc:Sequence', canvases }],
    ...(structures.length ? { structures } : {}),
  };
}
