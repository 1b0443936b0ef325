/**
 * Runs an import plan: stores each image once, then writes every page with its regions, lines
 * and transcriptions in one transaction, so a failure mid-page leaves no half page and the
 * pages before it stay. Folders mirror the imported directories; IIIF manifests become a
 * folder of pages on the remote images, which keeps the manifest's ranges and licence.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { nowIso } from '../clock';
import type { Db } from '../db';
import type { Image } from '../db/schema';
import { PolygonError, type Point } from '../geometry/polygon';
import { createElements, type NewElement } from '../services/elements/create';
import { rangesOnPages, saveImportedManifest } from '../services/elements/importedManifests';
import { chunks, INSERT_CHUNK } from '../services/elements/repository';
import { importWorkerRun } from '../services/workerRuns';
import { ImportFormatError, type ParsedCanvas, type ParsedRegion } from './formats/types';
import { ApiError } from '../errors';
import { planImport, type PlannedItem, type PlannedLayout, type PlannedManifest } from './plan';
import { pagePolygon } from './pagePolygon';
import { emptyReport, type ImportReport } from './report';
import { ImportTypes } from './types';
import { ImportImages } from './images';

export interface ImportTarget {
  corpusId: string;
  /** Recorded as the creator of what the import makes; null from the command line. */
  userId: string | null;
  /** The folder (or any element) to import into; null: the project's top level. */
  parentId: string | null;
  /**
   * Name of a folder created to hold everything; undefined: the imported folder's own name
   * (none for a single file); null: no folder, straight into parentId.
   */
  folderName?: string | null;
}

export interface ImportHooks {
  progress?(fraction: number): Promise<void> | void;
  shouldStop?(): Promise<boolean>;
}

export interface ImportContext {
  db: Db;
  dataDir: string;
  /** The JPEG quality of the pyramids stored (config.iiifJpegQuality). */
  jpegQuality?: number;
}

/** Canvases written per transaction: a 300-canvas manifest should not hold one long lock. */
const CANVAS_BATCH = 100;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How much of the work an item is, for progress: a manifest is as long as its canvases. */
function weight(item: PlannedItem): number {
  return item.kind === 'manifest' ? Math.max(1, item.manifest.canvases.length / 20) : 1;
}

class Importer {
  readonly report = emptyReport();
  private readonly types: ImportTypes;
  private readonly images: ImportImages;
  /** Folder element ids by their path below the import root ('' is the root). */
  private readonly folders = new Map<string, string | null>();
  /** The project's import worker run, which the transcriptions read from files come from. */
  private workerRunId: string | null = null;

  constructor(
    private readonly context: ImportContext,
    private readonly target: ImportTarget,
  ) {
    this.types = new ImportTypes(context.db, target.corpusId, this.report);
    this.images = new ImportImages(context, target.corpusId, this.report);
  }

  async start(rootFolderName: string | null): Promise<void> {
    if (rootFolderName === null) {
      this.folders.set('', this.target.parentId);
      this.report.element_id = this.target.parentId;
      return;
    }
    const id = await this.createFolder(rootFolderName, this.target.parentId);
    this.folders.set('', id);
    this.report.folder_id = id;
    this.report.element_id = id;
  }

  private async createFolder(name: string, parentId: string | null): Promise<string> {
    const typeId = await this.types.id('folder', 'Folder', true);
    const [id] = await createElements(this.context.db, [
      {
        corpusId: this.target.corpusId,
        typeId,
        name,
        parentId,
        creatorId: this.target.userId,
      },
    ]);
    this.report.folders += 1;
    return id!;
  }

  /** The folder for a directory below the root, created with its ancestors when first needed. */
  async folder(parts: readonly string[]): Promise<string | null> {
    const key = parts.join('/');
    if (this.folders.has(key)) return this.folders.get(key)!;
    const parent = await this.folder(parts.slice(0, -1));
    const id = await this.createFolder(parts[parts.length - 1]!, parent);
    this.folders.set(key, id);
    return id;
  }

  async importImage(item: PlannedItem & { kind: 'image' }): Promise<void> {
    const image = await this.images.local(item.imagePath);
    const parentId = await this.folder(item.folder);
    const pageType = await this.types.id('page', 'Page', false);
    await createElements(
      this.context.db,
      [
        {
          corpusId: this.target.corpusId,
          typeId: pageType,
          name: path.basename(item.imagePath).replace(/\.[^.]+$/, ''),
          parentId,
          imageId: image.id,
          creatorId: this.target.userId,
        },
      ],
      new Map([[image.id, image]]),
    );
    this.report.pages += 1;
  }

  async importLayout(item: PlannedLayout): Promise<void> {
    const image = await this.images.local(item.imagePath);
    const parentId = await this.folder(item.folder);
    const pageType = await this.types.id('page', 'Page', false);
    const lineType = await this.types.id('text_line', 'Text line', false);
    const regionTypes = new Map<ParsedRegion, string>();
    for (const region of item.page.regions) {
      regionTypes.set(region, await this.types.id(region.type || 'text_region', region.typeLabel));
    }

    const pageId = randomUUID();
    const elements: NewElement[] = [
      {
        id: pageId,
        corpusId: this.target.corpusId,
        typeId: pageType,
        name: path.basename(item.source).replace(/\.[^.]+$/, ''),
        parentId,
        imageId: image.id,
        creatorId: this.target.userId,
      },
    ];
    const transcriptions: { elementId: string; text: string }[] = [];
    const counts = { regions: 0, lines: 0 };
    const ordinals = new Map<string, number>();
    const zone = (points: Point[], what: string): Point[] | null => {
      try {
        return pagePolygon(points, item.page, image);
      } catch (error) {
        if (!(error instanceof PolygonError)) throw error;
        this.report.problems.push({ file: item.source, reason: `${what}: ${error.message}` });
        return null;
      }
    };

    for (const region of item.page.regions) {
      const polygon = zone(region.polygon, `region ${region.id}`);
      if (!polygon) continue;
      const typeId = regionTypes.get(region)!;
      const ordinal = (ordinals.get(typeId) ?? 0) + 1;
      ordinals.set(typeId, ordinal);
      const regionId = randomUUID();
      elements.push({
        id: regionId,
        corpusId: this.target.corpusId,
        typeId,
        name: String(ordinal),
        parentId: pageId,
        imageId: image.id,
        polygon,
        creatorId: this.target.userId,
      });
      counts.regions += 1;
      let lineNumber = 0;
      for (const line of region.lines) {
        const linePolygon = zone(line.polygon, `line ${line.id}`);
        if (!linePolygon) continue;
        lineNumber += 1;
        const lineId = randomUUID();
        elements.push({
          id: lineId,
          corpusId: this.target.corpusId,
          typeId: lineType,
          name: String(lineNumber),
          parentId: regionId,
          imageId: image.id,
          polygon: linePolygon,
          creatorId: this.target.userId,
        });
        counts.lines += 1;
        if (line.text) transcriptions.push({ elementId: lineId, text: line.text });
      }
    }

    if (transcriptions.length > 0) {
      this.workerRunId ??= await importWorkerRun(this.context.db, this.target.corpusId);
    }
    const workerRunId = this.workerRunId;
    await this.context.db.transaction().execute(async (trx) => {
      await createElements(trx, elements, new Map([[image.id, image]]));
      const now = nowIso();
      for (const part of chunks(transcriptions, INSERT_CHUNK)) {
        await trx
          .insertInto('transcriptions')
          .values(
            part.map((row) => ({
              id: randomUUID(),
              element_id: row.elementId,
              text: row.text,
              orientation: 'horizontal-lr' as const,
              confidence: null,
              worker_run_id: workerRunId,
              creator_id: this.target.userId,
              created: now,
              updated: now,
            })),
          )
          .execute();
      }
    });
    this.report.pages += 1;
    this.report.regions += counts.regions;
    this.report.lines += counts.lines;
    this.report.transcriptions += transcriptions.length;
  }

  async importManifest(
    item: PlannedManifest,
    progress: (done: number) => Promise<void>,
    shouldStop: () => Promise<boolean>,
  ): Promise<void> {
    const manifest = item.manifest;
    const usable: ParsedCanvas[] = [];
    manifest.canvases.forEach((canvas, index) => {
      if (canvas.imageServiceUrl && canvas.width > 0 && canvas.height > 0) usable.push(canvas);
      else {
        this.report.problems.push({
          file: item.source,
          reason: `canvas ${index + 1} (${canvas.label || canvas.id}) has no IIIF image service`,
        });
      }
    });
    const parent = await this.folder(item.folder);
    const folderId = await this.createFolder(
      manifest.label || path.basename(item.source).replace(/\.[^.]+$/, ''),
      parent,
    );
    const pageType = await this.types.id('page', 'Page', false);
    /** The page made of each canvas, for the ranges. */
    const pages = new Map<string, string>();
    let done = 0;
    for (const batch of chunks(usable, CANVAS_BATCH)) {
      if (await shouldStop()) {
        this.report.stopped = true;
        break;
      }
      await this.context.db.transaction().execute(async (trx) => {
        const images: Image[] = [];
        for (const canvas of batch) images.push(await this.images.remote(trx, canvas));
        const ids = await createElements(
          trx,
          batch.map((canvas, i) => ({
            corpusId: this.target.corpusId,
            typeId: pageType,
            name: canvas.label || String(done + i + 1),
            parentId: folderId,
            imageId: images[i]!.id,
            creatorId: this.target.userId,
          })),
          new Map(images.map((image) => [image.id, image])),
        );
        batch.forEach((canvas, i) => {
          const id = canvas.id.replace(/#.*$/, '');
          if (id && !pages.has(id)) pages.set(id, ids[i]!);
        });
      });
      this.images.commitRemote();
      done += batch.length;
      this.report.pages += batch.length;
      await progress(done / Math.max(1, manifest.canvases.length));
    }
    // Kept even when stopped: the ranges then cover the pages made so far.
    await saveImportedManifest(this.context.db, folderId, {
      sourceId: manifest.id,
      version: manifest.version,
      structures: rangesOnPages(manifest.structures, (canvasId) => pages.get(canvasId)),
      rights: manifest.rights,
    });
  }
}

/**
 * Plans and imports `source` (a file or a folder on this machine) into a project. Unreadable
 * files, missing images and invalid zones are reported in the result and the rest goes on;
 * only a failure of the database or the disk stops the import (and is thrown).
 */
export async function runImport(
  context: ImportContext,
  source: string,
  target: ImportTarget,
  hooks: ImportHooks = {},
): Promise<ImportReport> {
  const plan = await planImport(source);
  const importer = new Importer(context, target);
  const report = importer.report;
  report.problems.push(...plan.problems);
  report.skipped.push(...plan.skipped);

  // A folder imports into a folder of its name; a single file straight into the parent.
  const rootName =
    target.folderName !== undefined
      ? target.folderName
      : (await stat(source)).isDirectory()
        ? plan.name
        : null;
  await importer.start(rootName);

  const total = plan.items.reduce((sum, item) => sum + weight(item), 0) || 1;
  let done = 0;
  const progress = async (fraction: number) => hooks.progress?.(Math.min(1, fraction));
  const shouldStop = async () => (hooks.shouldStop ? hooks.shouldStop() : false);

  for (const item of plan.items) {
    if (await shouldStop()) {
      report.stopped = true;
      break;
    }
    try {
      if (item.kind === 'manifest') {
        await importer.importManifest(
          item,
          (part) => progress((done + part * weight(item)) / total),
          shouldStop,
        );
        if (report.stopped) break;
      } else if (item.kind === 'layout') {
        await importer.importLayout(item);
      } else {
        await importer.importImage(item);
      }
    } catch (error) {
      if (!isItemProblem(error)) throw error;
      report.problems.push({ file: item.source, reason: describe(error) });
    }
    done += weight(item);
    await progress(done / total);
  }
  return report;
}

/** Errors that concern one file (an unreadable image), as opposed to the database or disk. */
function isItemProblem(error: unknown): boolean {
  return error instanceof ApiError || error instanceof ImportFormatError;
}
