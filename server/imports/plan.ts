/**
 * What an import of a file or folder will create, worked out before anything is written:
 * layout files (PAGE, ALTO) with the image each one describes, standalone images, and IIIF
 * manifests. Files that cannot be read are reported with their reason and the rest goes on.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { detectFormat } from './formats/detect';
import { parseAlto } from './formats/alto';
import { parsePageXml } from './formats/pagexml';
import { parseIiifManifest } from './formats/iiifManifest';
import type { ParsedManifest, ParsedPage } from './formats/types';

export const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.tif', '.tiff']);

interface PlannedBase {
  /** Path relative to the import root, for reports. */
  source: string;
  /** Directories from the import root to the file: the folders the page lands in. */
  folder: string[];
}

export interface PlannedLayout extends PlannedBase {
  kind: 'layout';
  page: ParsedPage;
  imagePath: string;
}

export interface PlannedImage extends PlannedBase {
  kind: 'image';
  imagePath: string;
}

export interface PlannedManifest extends PlannedBase {
  kind: 'manifest';
  manifest: ParsedManifest;
}

export type PlannedItem = PlannedLayout | PlannedImage | PlannedManifest;

export interface ImportProblem {
  file: string;
  reason: string;
}

export interface ImportPlan {
  /** Name of the folder the import creates: the base name of what was imported. */
  name: string;
  items: PlannedItem[];
  problems: ImportProblem[];
  /** Files that are none of the importable kinds (notes, other data), left alone. */
  skipped: string[];
}

async function walk(dir: string, files: string[]): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, files);
    else if (entry.isFile()) files.push(full);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The image a layout file describes: the name written in the XML relative to the XML's folder or
 * its parent, else its base name in the XML's folder, its parent, or the import root.
 */
export async function resolveLayoutImage(
  xmlPath: string,
  imageFilename: string,
  root: string,
): Promise<string | null> {
  const xmlDir = path.dirname(xmlPath);
  const parent = path.dirname(xmlDir);
  const isUrl = /^[a-z]+:\/\//i.test(imageFilename);
  const base = path.basename(imageFilename.replace(/\\/g, '/'));
  const candidates = [
    ...(isUrl || !imageFilename
      ? []
      : [path.resolve(xmlDir, imageFilename), path.resolve(parent, imageFilename)]),
    path.join(xmlDir, base),
    path.join(parent, base),
    path.join(root, base),
  ];
  for (const candidate of candidates) {
    if (base && (await exists(candidate))) return candidate;
  }
  // Same base name with another image extension (a .tif exported as .jpg, say).
  const stem = base.replace(/\.[^.]+$/, '');
  for (const dir of [xmlDir, parent, root]) {
    for (const extension of IMAGE_EXTENSIONS) {
      const candidate = path.join(dir, stem + extension);
      if (stem && (await exists(candidate))) return candidate;
    }
  }
  return null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function planImport(target: string): Promise<ImportPlan> {
  const absolute = path.resolve(target);
  const stat = await fs.stat(absolute).catch(() => null);
  if (!stat) throw new Error(`Nothing to import at ${target}: no such file or folder.`);
  const root = stat.isDirectory() ? absolute : path.dirname(absolute);
  const files: string[] = [];
  if (stat.isDirectory()) await walk(absolute, files);
  else files.push(absolute);

  const plan: ImportPlan = {
    name: path.basename(absolute).replace(/\.[^.]+$/, '') || 'Import',
    items: [],
    problems: [],
    skipped: [],
  };
  const relative = (file: string) => path.relative(root, file) || path.basename(file);
  const folderOf = (file: string) =>
    path.relative(root, path.dirname(file)).split(path.sep).filter(Boolean);
  const describedImages = new Set<string>();
  const images: string[] = [];

  for (const file of files) {
    const extension = path.extname(file).toLowerCase();
    if (IMAGE_EXTENSIONS.has(extension)) {
      images.push(file);
      continue;
    }
    if (extension !== '.xml' && extension !== '.json') {
      plan.skipped.push(relative(file));
      continue;
    }
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      plan.problems.push({ file: relative(file), reason: `cannot be read: ${describe(error)}` });
      continue;
    }
    const format = detectFormat(text, file);
    if (format === null) {
      if (extension === '.xml') {
        plan.problems.push({ file: relative(file), reason: 'not a PAGE XML or ALTO file' });
      } else {
        plan.skipped.push(relative(file));
      }
      continue;
    }
    try {
      if (format === 'iiif-manifest') {
        plan.items.push({
          kind: 'manifest',
          source: relative(file),
          folder: folderOf(file),
          manifest: parseIiifManifest(text),
        });
        continue;
      }
      const page = format === 'page' ? parsePageXml(text) : parseAlto(text);
      const imagePath = await resolveLayoutImage(file, page.imageFilename, root);
      if (!imagePath) {
        plan.problems.push({
          file: relative(file),
          reason: `its image "${page.imageFilename}" was not found`,
        });
        continue;
      }
      describedImages.add(imagePath);
      plan.items.push({
        kind: 'layout',
        source: relative(file),
        folder: folderOf(file),
        page,
        imagePath,
      });
    } catch (error) {
      plan.problems.push({ file: relative(file), reason: describe(error) });
    }
  }

  // Images that no layout file describes become pages of their own.
  for (const image of images) {
    if (!describedImages.has(image)) {
      plan.items.push({
        kind: 'image',
        source: relative(image),
        folder: folderOf(image),
        imagePath: image,
      });
    }
  }
  return plan;
}
