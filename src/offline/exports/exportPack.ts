/**
 * Exports a pack taken offline, in the browser, from what the device holds: PAGE XML or ALTO
 * (one file per page, `<page name>.xml`, zipped) or one CSV of every element. No request is
 * made, so it works with the network off.
 */
import { strToU8, zipSync } from 'fflate';
import { writeAlto } from '@/lib/exports/alto';
import { CSV_FIELDS, csvHeader, csvRow } from '@/lib/exports/csv';
import type { PageLayout } from '@/lib/exports/layout';
import { writePageXml } from '@/lib/exports/pageXml';
import type { FoliaDatabase } from '../db';
import { readPackContents } from './packContents';
import { packCsvRows, type PagePlacement } from './csvRows';
import { pageLayoutOnDevice } from './pageLayouts';

export type OfflineExportFormat = 'pagexml' | 'alto' | 'csv';

export interface OfflineExportFile {
  filename: string;
  mime: string;
  bytes: Uint8Array;
}

/** Characters no file name may hold become '_'; an empty name becomes `fallback`. */
export function safeFilename(name: string, fallback: string): string {
  const safe = [...name]
    .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim();
  return safe || fallback;
}

/** `<name>.xml` for each page, `<name> (2).xml` and so on when two pages share a name. */
export function uniqueFilenames(names: readonly string[], extension: string): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = safeFilename(name, 'page');
    let candidate = `${base}${extension}`;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) {
      candidate = `${base} (${n})${extension}`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Every page's layout and where each element was placed, in the pack's order. */
export async function readPackLayouts(db: FoliaDatabase, packId: string) {
  const contents = await readPackContents(db, packId);
  const layouts: PageLayout[] = [];
  const placements = new Map<string, PagePlacement>();
  for (const pageId of contents.pageIds) {
    const { layout, parents } = await pageLayoutOnDevice(db, contents, pageId);
    layouts.push(layout);
    placements.set(pageId, { pageId, parentId: pageId });
    for (const [id, parentId] of parents) placements.set(id, { pageId, parentId });
  }
  return { contents, layouts, placements };
}

export async function exportPack(
  db: FoliaDatabase,
  packId: string,
  format: OfflineExportFormat,
): Promise<OfflineExportFile> {
  const { contents, layouts, placements } = await readPackLayouts(db, packId);
  const name = safeFilename(contents.root.data.name, 'export');
  if (format === 'csv') {
    const rows = packCsvRows(contents, placements);
    const text = csvHeader(CSV_FIELDS) + rows.map((row) => csvRow(row, CSV_FIELDS)).join('');
    return { filename: `${name}.csv`, mime: 'text/csv;charset=utf-8', bytes: strToU8(text) };
  }
  const names = uniqueFilenames(
    layouts.map((layout) => layout.pageName),
    '.xml',
  );
  const files: Record<string, Uint8Array> = {};
  layouts.forEach((layout, i) => {
    const xml = format === 'pagexml' ? writePageXml(layout) : writeAlto(layout);
    files[names[i]!] = strToU8(xml);
  });
  return {
    filename: `${name}-${format === 'pagexml' ? 'page' : 'alto'}.zip`,
    mime: 'application/zip',
    bytes: zipSync(files),
  };
}
